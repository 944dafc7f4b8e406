package dev.seckill.system.cluster;

import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stampede;

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

    /** More than the breakers' half-open calls (seckill.breaker.half-open-calls, 3 in every stack here). */
    static final int IN_A_ROW = 5;

    private final ClusterStack cluster;
    private final HttpJson http = new HttpJson();

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
                Stampede.User u = run.newShopper();
                int status = http.post(cluster.url(service) + "/api/sales/" + run.saleId + "/purchase", null,
                        "Authorization", HttpJson.bearer(u.token())).status();
                streak[0] = status != 503 && status != 429 ? streak[0] + 1 : 0;
                return streak[0] >= IN_A_ROW;
            }, service + " to serve " + IN_A_ROW + " purchases in a row in sale " + run.saleId);
        }
    }
}
