package dev.seckill.bench.measure;

import dev.seckill.bench.report.Report;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One ceiling over another in interleaved rounds: each round's two sides run back to back under one background load,
 * so the median of the rounds' ratios counts; the ratio of the two best rounds is kept beside it.
 */
public record Ratio(String name, double median, List<Double> rounds, double ofBest) {

    public static Ratio of(List<Measured> all, String numerator, String denominator) {
        double[] top = all.stream().filter(m -> m.name().equals(numerator)).mapToDouble(Measured::rps).toArray();
        double[] bottom = all.stream().filter(m -> m.name().equals(denominator)).mapToDouble(Measured::rps).toArray();
        List<Double> rounds = IntStream.range(0, Math.min(top.length, bottom.length))
                .mapToObj(i -> Report.round(top[i] / bottom[i])).toList();
        double[] s = rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = s.length == 0 ? 0 : (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
        return new Ratio(numerator + " / " + denominator, Report.round(median), rounds,
                Report.round(Arrays.stream(top).max().orElse(Double.NaN)
                        / Arrays.stream(bottom).max().orElse(Double.NaN)));
    }
}
