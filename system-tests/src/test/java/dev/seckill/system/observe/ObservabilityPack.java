package dev.seckill.system.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The repository's observability/ directory as the tests read it: its files and the PromQL they hold. */
final class ObservabilityPack {

    static final String PROMETHEUS = "prometheus.yml";
    static final String PROMETHEUS_CLUSTER = "prometheus-cluster.yml";
    static final String ALERTS = "rules/seckill-alerts.yml";
    static final String ALERT_TESTS = "rules/seckill-alerts.test.yml";
    static final String DASHBOARD = "grafana/seckill-dashboard.json";

    private final Path dir;

    ObservabilityPack(Path home) {
        this.dir = home.resolve("observability");
    }

    Path dir() {
        return dir;
    }

    /** Every alert rule's expression (groups[].rules[].expr). */
    List<String> alertExpressions() {
        return rules().stream().map(r -> (String) r.get("expr")).toList();
    }

    /** The alerts' names, in file order. */
    List<String> alertNames() {
        return rules().stream().map(r -> (String) r.get("alert")).toList();
    }

    /** The text of the rules' unit tests. */
    String alertTests() {
        return read(ALERT_TESTS);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> rules() {
        Map<String, Object> file = new Yaml().load(read(ALERTS));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            out.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return out;
    }

    /** Every query of the dashboard: each "expr" anywhere in it (panels, rows' panels, targets). */
    List<String> dashboardExpressions() {
        try {
            List<String> out = new ArrayList<>();
            new ObjectMapper().readTree(read(DASHBOARD)).findValues("expr").forEach(e -> out.add(e.asText()));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The metric names the alerts and the dashboard read. */
    Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        alertExpressions().forEach(e -> names.addAll(PromQlNames.of(e)));
        dashboardExpressions().forEach(e -> names.addAll(PromQlNames.of(e)));
        return names;
    }

    private String read(String file) {
        try {
            return Files.readString(dir.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
