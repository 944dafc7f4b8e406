package dev.seckill.system.protection;

import dev.seckill.system.edge.EdgeInstance;
import dev.seckill.testkit.HttpJson;

/** One series of an edge's /edge/metrics (Prometheus text), 0 when it has not appeared yet. */
final class EdgeCounters {

    private EdgeCounters() {
    }

    static long value(HttpJson http, EdgeInstance edge, String series) {
        for (String line : edge.metrics(http).split("\n")) {
            if (line.startsWith(series + " ")) {
                return (long) Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return 0;
    }
}
