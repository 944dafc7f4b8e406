package dev.seckill.system.cluster;

import dev.seckill.bench.Stampede;
import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.HttpJson;

import java.time.Duration;

/**
 * Waits until every service instance serves purchases again after a fault: a probe shopper buys in the sale straight
 * at each instance's public listener until the answer is not 503. Each instance's clients (Redis Cluster topology,
 * Kafka metadata) learn of a failover on their own, so one instance answering is not both.
 */
final class ServiceProbe {

    private final ClusterStack cluster;
    private final HttpJson http = new HttpJson();

    ServiceProbe(ClusterStack cluster) {
        this.cluster = cluster;
    }

    /** Polls each service until a purchase in {@code run}'s sale gets an answer other than 503 (or a rate limit). */
    void awaitServed(SaleRun run, Duration timeout) {
        for (String service : cluster.nodes("service")) {
            Await.until(timeout, () -> {
                Stampede.User u = run.newShopper();
                int status = http.post(cluster.url(service) + "/api/sales/" + run.saleId + "/purchase", null,
                        "Authorization", HttpJson.bearer(u.token())).status();
                return status != 503 && status != 429;
            }, service + " to serve purchases in sale " + run.saleId);
        }
    }
}
