package dev.seckill.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One ceiling over another in interleaved rounds. Each round's two sides run back to back under one background load,
 * so the median of the rounds' ratios counts; the ratio of the two best rounds is kept beside it.
 */
record Ratio(String name, double median, List<Double> rounds, double ofBest) {

    static Ratio of(List<Measured> all, String numerator, String denominator) {
        List<Measured> top = all.stream().filter(m -> m.name().equals(numerator)).toList();
        List<Measured> bottom = all.stream().filter(m -> m.name().equals(denominator)).toList();
        List<Double> rounds = new ArrayList<>();
        for (int i = 0; i < Math.min(top.size(), bottom.size()); i++) {
            rounds.add(Report.round(top.get(i).rps() / bottom.get(i).rps()));
        }
        List<Double> s = rounds.stream().sorted().toList();
        int n = s.size();
        double median = n == 0 ? 0 : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        return new Ratio(numerator + " / " + denominator, Report.round(median), rounds,
                Report.round(best(top) / best(bottom)));
    }

    private static double best(List<Measured> side) {
        return side.stream().mapToDouble(Measured::rps).max().orElse(Double.NaN);
    }
}
