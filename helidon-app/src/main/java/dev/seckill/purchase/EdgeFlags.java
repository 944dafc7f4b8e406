package dev.seckill.purchase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Clears the edge's sold-out flag of a sale when stock comes back (loopback admin location of the edge). Best
 * effort and asynchronous: the flag has a TTL anyway, so a lost call only delays the reopening by that TTL.
 */
public final class EdgeFlags {

    private static final System.Logger LOG = System.getLogger(EdgeFlags.class.getName());

    private final String base;
    private final HttpClient http;

    /** @param base the edge admin base URL, e.g. http://127.0.0.1:8080; empty disables the calls */
    public EdgeFlags(String base) {
        this.base = base == null ? "" : base.replaceAll("/+$", "");
        this.http = this.base.isEmpty() ? null
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    }

    public void clearSoldOut(long saleId) {
        if (http == null) {
            return;
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/edge/flags/sold-out/" + saleId))
                .timeout(Duration.ofSeconds(2)).DELETE().build();
        http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
            if (e != null) {
                LOG.log(System.Logger.Level.WARNING, "failed to clear the edge sold-out flag of sale " + saleId + ": " + e);
            }
        });
    }
}
