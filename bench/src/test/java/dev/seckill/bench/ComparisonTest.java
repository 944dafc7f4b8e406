package dev.seckill.bench;

import dev.seckill.bench.scenario.ShardCeiling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {

    @Test
    void comparesEachNumberAsClusterOverSingleAndSkipsAMissingCeiling(@TempDir Path dir) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Path single = Files.createDirectories(dir.resolve("single"));
        Files.writeString(cluster.resolve("report.json"), """
                {"ok":false,"scenario":{"stock":1000},"flashSale":{"rps":2000.0,"sellOutAt":1.5,
                 "latency":{"p50":10.0,"p99":100.0},"drainSeconds":0.5}}""");
        Files.writeString(single.resolve("report.json"), """
                {"ok":true,"scenario":{"stock":1000},"flashSale":{"rps":4000.0,"sellOutAt":1.0,
                 "latency":{"p50":5.0,"p99":50.0},"drainSeconds":null}}""");
        Files.writeString(single.resolve(ShardCeiling.FILE), "[{\"name\":\"evalsha\",\"rps\":10000.0}]");

        Comparison.Result r = Comparison.compare(cluster, single);

        assertFalse(r.clusterInvariantsHold());
        assertTrue(r.singleInvariantsHold());
        assertEquals(0.5, row(r, "flash sale: answers per second").ratio());
        assertEquals(1.5, row(r, "time to sell out").ratio());
        assertNull(row(r, "writer drain after the sell-out").ratio(), "no ratio without the single stack's number");
        assertTrue(r.rows().stream().noneMatch(x -> x.name().startsWith("evalsha")), "a ceiling one side lacks");
        String md = Comparison.markdown(r, cluster, single);
        assertTrue(md.contains("| flash sale: answers per second | 2,000 req/s | 4,000 req/s | 0.50 |"), md);
        assertTrue(md.contains("| writer drain after the sell-out | 0.50 s | - | - |"), md);
        assertTrue(md.contains("Invariants: cluster VIOLATED, single stack all hold"), md);
    }

    private static Comparison.Row row(Comparison.Result r, String name) {
        return r.rows().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
    }
}
