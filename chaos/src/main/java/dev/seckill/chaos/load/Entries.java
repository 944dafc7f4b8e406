package dev.seckill.chaos.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.ApiContract;
import dev.seckill.testkit.HttpJson;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The cluster's entry points (its load balancers) as shoppers reach them in production: one name in front of several
 * addresses, with a health check that takes a silent one out (DNS with health checks, or a virtual IP that moves;
 * docs/cluster.md, "Entry points"). A watcher probes each entry's /lb/health every {@link #PROBE_EVERY}; {@link #FALL} missed
 * probes in a row take it out, and the exchanges still waiting on it are cut, as a moved virtual IP resets them;
 * {@link #RISE} answered ones bring it back. Each request goes to the next entry in rotation that is in (and not the
 * one the caller avoids: a buyer whose click was cut clicks again at the other address).
 * <p>
 * Requests go through the test kit's {@link HttpJson} in its non-failing form, at most {@code inFlight} at once,
 * with a shopper's patience: an answer that does not come within it is status 0; one whose connection failed or
 * was cut is status 0 at once ({@link Answer#cut}), as a browser shows a failed connection.
 */
public final class Entries implements AutoCloseable {

    static final Duration PROBE_EVERY = Duration.ofMillis(200);
    static final Duration PROBE_TIMEOUT = Duration.ofMillis(400);
    static final int FALL = 2;
    static final int RISE = 2;

    /**
     * One answer ({@code http}: status 0 when none came; its {@code contract}, why the OpenAPI document does not
     * describe it), the entry point it was sent to, and whether it is missing because the connection failed or was
     * cut rather than because the patience ran out.
     */
    public record Answer(HttpJson.Answer http, String entry, boolean cut) {

        public int status() {
            return http.status();
        }

        public String code() {
            return http.code();
        }

        /** The order id the answer names, in its body or its X-Order-Id header. */
        public String orderId() {
            JsonNode id = http.json().path("orderId");
            return id.isTextual() ? id.asText() : http.header("X-Order-Id");
        }

        /** Retry-After in seconds; -1 when there is none. */
        public long retryAfterSeconds() {
            try {
                String v = http.header("Retry-After");
                return v == null ? -1 : Long.parseLong(v.strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    private static final class Entry {
        final String name;
        final String url;
        final Set<Future<?>> pending = ConcurrentHashMap.newKeySet();
        volatile boolean in = true;
        int streak;

        Entry(String name, String url) {
            this.name = name;
            this.url = url;
        }
    }

    private final List<Entry> entries;
    private final HttpJson http;
    private final Semaphore inFlight;
    private final Consumer<String> log;
    private final HttpJson probes = new HttpJson(PROBE_TIMEOUT, PROBE_TIMEOUT);
    private final AtomicInteger turn = new AtomicInteger();
    private final Thread watcher;

    /**
     * Each entry point's name and base URL, in order; at most {@code inFlight} requests at once, each waiting
     * {@code patienceMillis} at most. Reads the OpenAPI document now: a run without it fails before its first request.
     */
    public Entries(List<String> names, Function<String, String> url, int inFlight, long patienceMillis,
                   Consumer<String> log) {
        ApiContract.get();
        this.entries = names.stream().map(n -> new Entry(n, url.apply(n))).toList();
        this.http = new HttpJson(Duration.ofSeconds(2), Duration.ofMillis(patienceMillis));
        this.inFlight = new Semaphore(inFlight);
        this.log = log;
        this.watcher = Thread.ofPlatform().daemon().name("entries").start(this::watch);
    }

    /**
     * POSTs to {@code path} at the next entry point, not the one named {@code avoid} (null: any), with the caller's
     * X-Request-Id and header pairs; never throws for a failed request.
     */
    public Answer post(String path, String body, String requestId, String avoid, String... headers) {
        Entry e = next(avoid);
        String[] all = Stream.concat(Stream.of("X-Request-Id", requestId), Stream.of(headers)).toArray(String[]::new);
        HttpJson.Answer none = HttpJson.Answer.none(null);
        try {
            inFlight.acquire();
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return new Answer(none, e.name, false);
        }
        CompletableFuture<HttpJson.Answer> exchange = http.attempt("POST", e.url + path, body, all);
        e.pending.add(exchange);
        try {
            HttpJson.Answer a = exchange.get();
            return new Answer(a, e.name, a.status() == 0 && !a.timedOut());
        } catch (CancellationException | ExecutionException ex) {
            return new Answer(none, e.name, true);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return new Answer(none, e.name, false);
        } finally {
            e.pending.remove(exchange);
            inFlight.release();
        }
    }

    /** The next entry in rotation that is in and is not {@code avoid}; when none is, any but that one. */
    private Entry next(String avoid) {
        int n = entries.size();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < n; i++) {
                Entry e = entries.get(Math.floorMod(turn.getAndIncrement(), n));
                if (!e.name.equals(avoid) && (pass == 1 || e.in)) {
                    return e;
                }
            }
        }
        return entries.getFirst();
    }

    private void watch() {
        while (!Thread.currentThread().isInterrupted()) {
            List<CompletableFuture<Boolean>> answers = entries.stream().map(this::probe).toList();
            for (int i = 0; i < entries.size(); i++) {
                judge(entries.get(i), answers.get(i).join());
            }
            try {
                Thread.sleep(PROBE_EVERY);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private CompletableFuture<Boolean> probe(Entry e) {
        return probes.attempt("GET", e.url + "/lb/health", null).thenApply(a -> a.status() == 200);
    }

    private void judge(Entry e, boolean answered) {
        e.streak = answered ? Math.max(e.streak, 0) + 1 : Math.min(e.streak, 0) - 1;
        if (e.in && e.streak <= -FALL) {
            e.in = false;
            int cut = e.pending.size();
            e.pending.forEach(f -> f.cancel(true));
            log.accept("entry " + e.name + " missed " + FALL + " health probes: out of rotation, " + cut
                    + " waiting exchanges cut");
        } else if (!e.in && e.streak >= RISE) {
            e.in = true;
            log.accept("entry " + e.name + " answers its health probes again: back in rotation");
        }
    }

    @Override
    public void close() {
        watcher.interrupt();
    }
}
