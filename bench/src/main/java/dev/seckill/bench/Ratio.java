package dev.seckill.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One ceiling against another, e.g. the sold-out short-circuit against nginx {@code return 200}. The two sides of a
 * round run back to back, so each round gives a ratio under one background load; the ratio that counts is the
 * median of the rounds' ratios, which a noisy neighbour moves far less than the ratio of two best rounds that may
 * come from different moments (that one is kept too).
 */
record Ratio(String name, double median, List<Double> rounds, double ofBest) {

    static Ratio of(Ceilings.Result c, String numerator, String denominator) {
        return of(c.rounds(), numerator, denominator);
    }

    /** The same over any interleaved rounds (the protection's purchase cost, issue 15). */
    static Ratio of(List<Measured> all, String numerator, String denominator) {
        List<Measured> top = all.stream().filter(m -> m.name().equals(numerator)).toList();
        List<Measured> bottom = all.stream().filter(m -> m.name().equals(denominator)).toList();
        List<Double> rounds = new ArrayList<>();
        for (int i = 0; i < Math.min(top.size(), bottom.size()); i++) {
            rounds.add(Report.round(top.get(i).rps() / bottom.get(i).rps()));
        }
        List<Double> sorted = rounds.stream().sorted().toList();
        int n = sorted.size();
        double median = n == 0 ? 0 : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Ratio(numerator + " / " + denominator, Report.round(median), rounds,
                Report.round(best(top) / best(bottom)));
    }

    private static double best(List<Measured> side) {
        return side.stream().mapToDouble(Measured::rps).max().orElse(Double.NaN);
    }
}
