package dev.seckill.testkit;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reads Prometheus' text format: each sample line is {@code name{labels} value}; '#' lines are help and types. */
public final class PrometheusText {

    private PrometheusText() {
    }

    /** The metric names of the samples (the part before the labels or the value). */
    public static Set<String> names(String text) {
        Set<String> out = new TreeSet<>();
        samples(text).keySet().forEach(series -> out.add(series.split("\\{", 2)[0]));
        return out;
    }

    /** Each sample's value by its series ({@code name{labels}} exactly as written). */
    public static Map<String, Double> samples(String text) {
        Map<String, Double> out = new TreeMap<>();
        for (String line : text.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (!line.isBlank() && !line.startsWith("#") && space > 0) {
                out.put(line.substring(0, space).trim(), value(line.substring(space + 1)));
            }
        }
        return out;
    }

    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }
}
