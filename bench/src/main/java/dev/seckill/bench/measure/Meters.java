package dev.seckill.bench.measure;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The service's and the edges' meters (Prometheus text), by series ({@code name{labels}}). */
public record Meters(Stack stack, HttpJson http) {

    /** The edges' counters, summed over SECKILL_BENCH_EDGES (the cluster's) if set. */
    public Map<String, Double> edge() throws IOException {
        String listed = System.getenv("SECKILL_BENCH_EDGES");
        List<String> edges = listed == null || listed.isBlank() ? List.of(stack.edgeUrl()) : List.of(listed.split(","));
        Map<String, Double> sum = new HashMap<>();
        for (String edge : edges) {
            PrometheusText.samples(text(edge.strip() + "/edge/metrics")).forEach((k, v) -> sum.merge(k, v,
                    Double::sum));
        }
        return sum;
    }

    /** The service's meters ({@code /observe/metrics}). */
    public Map<String, Double> service() throws IOException {
        return PrometheusText.samples(text(stack.adminUrl() + "/observe/metrics", "Accept", "text/plain"));
    }

    /** The change of every series of a metric (all its labels together) between two scrapes. */
    public static long delta(Map<String, Double> before, Map<String, Double> after, String metric) {
        return Math.round(after.entrySet().stream().filter(e -> e.getKey().matches(metric + "(\\{.*)?"))
                .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum());
    }

    private String text(String url, String... headers) throws IOException {
        return require(http.attempt("GET", url, null, headers).join(), 200, "GET " + url).body();
    }

    /** {@code a} when its status is {@code expected}; any other answer (or none) is an IOException naming it. */
    public static HttpJson.Answer require(HttpJson.Answer a, int expected, String what) throws IOException {
        if (a.status() != expected) {
            throw new IOException(what + ": " + (a.status() == 0 ? "no answer (" + a.failure() + ")"
                    : a.status() + " " + a.body()));
        }
        return a;
    }
}
