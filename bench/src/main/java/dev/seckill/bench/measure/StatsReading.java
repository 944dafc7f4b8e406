package dev.seckill.bench.measure;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.AdminSales;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Predicate;

/** The consistency view of one sale ({@code GET /admin/sales/{id}/stats}), read through the test kit's AdminSales. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StatsReading(long stockTotal, long dbStock, Long redisRemaining, long redisBuyers, long dbOrders,
                        long consumerLag, long dbConfirmed, long dbPaid, long dbExpired, long unitsOwed) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The writer has caught up and has written at least {@code accepted} orders. */
    public boolean drained(long accepted) {
        return consumerLag == 0 && dbOrders >= accepted;
    }

    /**
     * Drained, and every order is PAID or EXPIRED with its unit back, in MySQL's stock and in Redis: the stats can
     * show an order EXPIRED a moment before its unit is counted back (a run read dbExpired 18, unitsOwed 0 and both
     * stocks 0, then 18), so the units are held against the live orders too.
     */
    public boolean settled(long accepted) {
        long back = stockTotal - (dbOrders - dbExpired);
        return drained(accepted) && dbConfirmed == 0 && unitsOwed == 0 && dbStock == back
                && (redisRemaining == null || redisRemaining == back);
    }

    /** The sale's figures now; an answer other than 200 is an IOException naming it. */
    public static StatsReading read(AdminSales sales, String adminUrl, long saleId) throws IOException {
        return JSON.treeToValue(Meters.require(sales.attemptStats(adminUrl, saleId), 200, "stats of sale " + saleId).json(),
                StatsReading.class);
    }

    /** Polls the stats until they are {@code done} (drained, settled); null if they were not in time. */
    public static StatsReading await(AdminSales sales, String adminUrl, long saleId, Predicate<StatsReading> done,
                                  Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            StatsReading s = read(sales, adminUrl, saleId);
            if (done.test(s)) {
                return s;
            }
            Thread.sleep(100);
        }
        return null;
    }
}
