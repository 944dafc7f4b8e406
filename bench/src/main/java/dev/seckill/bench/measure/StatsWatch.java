package dev.seckill.bench.measure;

import dev.seckill.testkit.AdminSales;

import java.io.IOException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A sale's stats polled every 100 ms on a thread of its own while a load runs, so that a moment the load hides (the
 * writer drained while the crowd still clicks) is seen when it comes: {@link #firstAt} after the load.
 */
public final class StatsWatch implements AutoCloseable {

    private static final long EVERY = Duration.ofMillis(100).toNanos();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("bench-stats-watch").factory());
    private final Queue<Reading> readings = new ConcurrentLinkedQueue<>();

    private record Reading(long nanos, StatsReading stats) {
    }

    /** Polls {@code saleId}'s stats from now until closed. */
    public StatsWatch(AdminSales sales, String adminUrl, long saleId) {
        timer.scheduleAtFixedRate(() -> {
            try {
                readings.add(new Reading(System.nanoTime(), StatsReading.read(sales, adminUrl, saleId)));
            } catch (IOException e) {
                // a missed reading (the service is busy or restarting); the next one comes soon
            }
        }, 0, EVERY, TimeUnit.NANOSECONDS);
    }

    /** When (System.nanoTime()) a reading first was {@code done}; Long.MAX_VALUE if none was. */
    public long firstAt(Predicate<StatsReading> done) {
        return readings.stream().filter(r -> done.test(r.stats())).mapToLong(Reading::nanos).findFirst()
                .orElse(Long.MAX_VALUE);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
