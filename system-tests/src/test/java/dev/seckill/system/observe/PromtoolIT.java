package dev.seckill.system.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The observability pack is valid as Prometheus reads it. promtool (Debian's prometheus package, which
 * bin/seckill test installs) checks both scrape configurations with the rules they load, the rules alone, and runs
 * the rules' unit tests (each alert fires on a synthetic series and stays quiet on another), and parses every query
 * of the dashboard. Without promtool the test fails: skipping would let a broken rule file through unnoticed.
 */
class PromtoolIT {

    private final ObservabilityPack pack = new ObservabilityPack(Stack.get().home());

    @Test
    void bothScrapeConfigurationsAndTheRulesTheyLoadAreValid() {
        promtool("check", "config", ObservabilityPack.PROMETHEUS, ObservabilityPack.PROMETHEUS_CLUSTER);
    }

    @Test
    void theAlertRulesAreValid() {
        String out = promtool("check", "rules", ObservabilityPack.ALERTS);
        assertTrue(out.contains("SUCCESS"), out);
    }

    @Test
    void everyAlertFiresOnItsSyntheticSeriesAndStaysQuietOtherwise() {
        String out = promtool("test", "rules", ObservabilityPack.ALERT_TESTS);
        assertTrue(out.contains("SUCCESS"), out);
    }

    @Test
    void everyAlertHasAUnitTest() {
        String tests = pack.alertTests();
        List<String> untested = new ArrayList<>();
        for (String alert : pack.alertNames()) {
            if (!tests.contains("alertname: " + alert + "\n")) {
                untested.add(alert);
            }
        }
        assertFalse(pack.alertNames().isEmpty(), "the rules define alerts");
        assertEquals(List.of(), untested, "alerts without a promtool unit test");
    }

    /**
     * Grafana does not check PromQL on import, so each dashboard query goes through promtool's parser as a recording
     * rule, with Grafana's interval variables replaced by a duration.
     */
    @Test
    void everyDashboardQueryIsValidPromQl(@TempDir Path tmp) throws IOException {
        List<Map<String, String>> rules = new ArrayList<>();
        for (String expr : pack.dashboardExpressions()) {
            rules.add(Map.of("record", "dashboard:query_" + rules.size(),
                    "expr", expr.replaceAll("\\$__(?:rate_interval|interval|range)", "5m")));
        }
        assertFalse(rules.isEmpty(), "the dashboard has queries");
        Path file = tmp.resolve("dashboard-queries.yml");
        // JSON is YAML: promtool reads it as a rule file.
        Map<String, Object> group = Map.of("name", "dashboard", "rules", rules);
        new ObjectMapper().writeValue(file.toFile(), Map.of("groups", List.of(group)));
        String out = promtool("check", "rules", file.toString());
        assertTrue(out.contains("SUCCESS: " + rules.size() + " rules found"), out);
    }

    /** Runs promtool in the observability directory (the files name each other relative to it); fails unless 0. */
    private String promtool(String... args) {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(pack.dir().toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool " + String.join(" ", args) + " did not end");
            assertEquals(0, p.exitValue(), "promtool " + String.join(" ", args) + ":\n" + out);
            return out;
        } catch (IOException e) {
            throw new AssertionError("promtool is not installed (apt-get install prometheus; bin/seckill test "
                    + "installs it): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
