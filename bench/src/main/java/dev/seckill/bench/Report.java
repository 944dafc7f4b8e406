package dev.seckill.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one bench run found, and its verdict: the targets of issue 7 as measured value against target, and the
 * invariant checks. Written as report.json, report.md and PNG charts into the out directory.
 */
record Report(Machine machine, Map<String, Object> scenario, boolean ok, List<Goal> goals, List<Check> invariants,
              FlashSaleNumbers flashSale, List<Map<String, Object>> timeline, List<Memory> memory,
              List<CpuWindow.Cpu> cpu, List<String> charts, @JsonIgnore Ceilings.Result ceilingResult) {

    /** One target: measured against wanted, with the comparison spelled out. */
    record Goal(String name, String measured, String target, boolean met) {
    }

    /** The invariant check of one sale, read from MySQL and Redis directly. */
    record Check(String sale, long saleId, boolean ok, long stockTotal, long accepted, long dbOrders, long dbStock,
                 Long redisRemaining, long redisBuyers, long oversold, long duplicates, long lost,
                 List<String> violations) {

        /** Oversold counts the live orders (an expired order gave its unit back, and it may have been sold again). */
        static Check of(String sale, Invariants.Report r) {
            return new Check(sale, r.saleId(), r.ok(), r.stockTotal(), r.accepted(), r.dbOrders(), r.dbStock(),
                    r.redisRemaining(), r.redisBuyers(), Math.max(0, r.liveOrders() - r.stockTotal()),
                    r.dbOrders() - r.distinctBuyers(), r.lost(), r.violations());
        }
    }

    static final String CPU_PNG = "cpu.png";
    static final String THROUGHPUT_PNG = "throughput.png";
    static final String LATENCY_PNG = "latency.png";
    static final String MEMORY_PNG = "memory.png";

    /** Writes report.json, report.md and the charts; returns the paths written. */
    List<Path> write(Path out, Timeline t, List<Sampler.Sample> samples, Map<String, Long> marks) throws IOException {
        Files.createDirectories(out);
        List<Path> written = new ArrayList<>();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        written.add(Files.writeString(out.resolve("report.json"), json.writeValueAsString(this)));
        written.addAll(new Charts(t, samples, marks, flashSale).write(out));
        written.add(Files.writeString(out.resolve("report.md"), new Markdown(this).render()));
        return written;
    }

    static List<Map<String, Object>> timeline(Timeline t) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Timeline.Bucket b : t.buckets) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("at", b.at());
            row.put("answersPerSecond", t.rate(b, null));
            row.put("outcomes", b.outcomes());
            row.put("latencyMs", b.latency());
            rows.add(row);
        }
        return rows;
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
