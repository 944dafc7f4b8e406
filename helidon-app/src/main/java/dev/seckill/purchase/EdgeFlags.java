package dev.seckill.purchase;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Clears the edges' sold-out flag of a sale when stock comes back (the loopback admin location of each edge). Every
 * edge is called at once, each call bounded by {@link #TIMEOUT}, so one dead edge delays no other and a unit that
 * comes back reaches every live edge within that second. A call that fails is tried again after a short pause, up
 * to {@link #ATTEMPTS} times in all (a busy edge may miss one deadline); then it is left to the edge's own re-check
 * of the flag. Every failed attempt is logged and counted ({@value #FAILED}), so a misconfigured edge address
 * shows.
 */
public final class EdgeFlags {

    static final String FAILED = "seckill.edge.flag.clear.failed";
    /** Connect and answer, per edge: an edge on loopback or the same network answers in milliseconds. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);
    static final int ATTEMPTS = 3;
    private static final Duration PAUSE = Duration.ofMillis(250);
    private static final Logger LOG = LoggerFactory.getLogger(EdgeFlags.class);

    private final List<String> bases;
    private final HttpClient http;
    private final Counter failures;

    /**
     * @param bases the edges' admin base URLs, comma-separated (e.g. {@code http://127.0.0.1:8080}); empty disables
     *              the calls
     */
    public EdgeFlags(String bases, MeterRegistry registry) {
        this.bases = bases == null ? List.of() : Arrays.stream(bases.split(","))
                .map(String::strip).filter(b -> !b.isEmpty()).map(b -> b.replaceAll("/+$", "")).toList();
        this.http = this.bases.isEmpty() ? null
                // HTTP/1.1: the edge's admin location speaks nothing else, so no h2c upgrade offer on every call.
                : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        this.failures = Counter.builder(FAILED)
                .description("Sold-out flag clears an edge did not confirm (the flag then lasts until its TTL)")
                .register(registry);
    }

    public void clearSoldOut(long saleId) {
        for (String base : bases) {
            clear(base, saleId, 1);
        }
    }

    private void clear(String base, long saleId, int attempt) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/edge/flags/sold-out/" + saleId))
                .timeout(TIMEOUT).DELETE().build();
        http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
            if (e != null) {
                failed(base, saleId, attempt, e.toString());
            } else if (r.statusCode() / 100 != 2) {
                failed(base, saleId, attempt, "the edge answered " + r.statusCode());
            }
        });
    }

    private void failed(String base, long saleId, int attempt, String cause) {
        failures.increment();
        boolean again = attempt < ATTEMPTS;
        LOG.warn("failed to clear the sold-out flag of sale " + saleId + " at " + base
                + " (attempt " + attempt + " of " + ATTEMPTS + (again ? ", trying again" : "") + "): " + cause);
        if (again) {
            CompletableFuture.delayedExecutor(PAUSE.toMillis() * attempt, TimeUnit.MILLISECONDS)
                    .execute(() -> clear(base, saleId, attempt + 1));
        }
    }
}
