package dev.seckill.bench.measure;

import dev.seckill.bench.report.Report;
import dev.seckill.bench.report.Section;

import java.util.List;
import java.util.LongSummaryStatistics;

import static dev.seckill.bench.report.Report.round;
import static dev.seckill.bench.report.Section.f;

/** Resident memory of one component: the largest and the mean sample of the run, the largest during the sale. */
public record Memory(String component, double maxMb, double meanMb, double maxMbDuringSale) {

    public static List<Memory> of(List<Sampler.Sample> samples, long saleStart, long saleEnd) {
        return Sampler.COMPONENTS.stream().map(c -> {
            LongSummaryStatistics all = samples.stream().mapToLong(s -> s.rssKb().getOrDefault(c, 0L))
                    .filter(kb -> kb > 0).summaryStatistics();
            long sale = samples.stream().filter(s -> s.nanos() >= saleStart && s.nanos() <= saleEnd)
                    .mapToLong(s -> s.rssKb().getOrDefault(c, 0L)).max().orElse(0);
            return new Memory(c, round(Math.max(0, all.getMax()) / 1024.0), round(all.getAverage() / 1024.0),
                    round(sale / 1024.0));
        }).toList();
    }

    public static Section section(List<Memory> memory) {
        Section s = new Section("memory", "Resident memory (VmRSS, sampled every 250 ms)").data(memory)
                .table("component", "max MB", "mean MB", "max MB during the flash sale");
        memory.forEach(m -> s.row(m.component(), f("%.1f", m.maxMb()), f("%.1f", m.meanMb()),
                f("%.1f", m.maxMbDuringSale())));
        return s.text("![resident memory over the bench](%s)", Report.MEMORY_PNG);
    }
}
