package dev.seckill.system.cluster;

import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;

import java.time.Duration;

/**
 * Waits until every service instance serves purchases again after a fault: probe shoppers buy in the sale straight
 * at each instance's public listener until {@link #IN_A_ROW} answers in a row are not 503. Each instance's clients
 * (Redis Cluster topology, Kafka metadata) learn of a failover on their own, so one instance answering is not both;
 * and a dependency's circuit breaker, opened by the fault, lets only a few probes through when it half-opens (three
 * by default) and closes once they succeed: one answer can be such a probe while the crowd is still refused, so the
 * service counts as serving only after more answers in a row than that.
 */
final class ServiceProbe {

    /** More than the breakers' half-open calls (BreakerSettings.STANDARD's, 3). */
    static final int IN_A_ROW = 5;

    private final ClusterStack cluster;

    ServiceProbe(ClusterStack cluster) {
        this.cluster = cluster;
    }

    /**
     * Polls each service until {@link #IN_A_ROW} purchases in a row in {@code run}'s sale (each a new shopper) get an
     * answer other than 503 or a rate limit.
     */
    void awaitServed(SaleRun run, Duration timeout) {
        for (String service : cluster.nodes("service")) {
            int[] streak = {0};
            Await.until(timeout, () -> {
                int status = run.probe(cluster.url(service)).status();
                streak[0] = status != 503 && status != 429 && status != 0 ? streak[0] + 1 : 0;
                return streak[0] >= IN_A_ROW;
            }, service + " to serve " + IN_A_ROW + " purchases in a row in sale " + run.saleId);
        }
    }
}
