package dev.seckill.chaos.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The cluster's entry points (its load balancers) as shoppers reach them in production: one name in front of several
 * addresses, with a health check that takes a silent one out (DNS with health checks, or a virtual IP that moves;
 * docs/cluster.md, "Entry points"). A watcher probes each entry's /lb/health every {@link #PROBE_EVERY}; {@link #FALL} missed
 * probes in a row take it out, and the exchanges still waiting on it are cut, as a moved virtual IP resets them;
 * {@link #RISE} answered ones bring it back. Each request goes to the next entry in rotation that is in (and not the
 * one the caller avoids: a buyer whose click was cut clicks again at the other address).
 */
public final class Entries implements AutoCloseable {

    static final Duration PROBE_EVERY = Duration.ofMillis(200);
    static final Duration PROBE_TIMEOUT = Duration.ofMillis(400);
    static final int FALL = 2;
    static final int RISE = 2;

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
    private final Client client;
    private final Consumer<String> log;
    private final HttpClient probes = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT)
            .version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger turn = new AtomicInteger();
    private final Thread watcher;

    /** {@code urls}: each entry point's name and base URL, in order. */
    public Entries(List<String> names, Function<String, String> url, Client client, Consumer<String> log) {
        this.entries = names.stream().map(n -> new Entry(n, url.apply(n))).toList();
        this.client = client;
        this.log = log;
        this.watcher = Thread.ofPlatform().daemon().name("entries").start(this::watch);
    }

    /** POSTs to {@code path} at the next entry point, not the one named {@code avoid} (null: any). */
    public Client.Answer post(String path, String body, String requestId, String avoid, String... headers) {
        Entry e = next(avoid);
        return client.send(client.request(e.url + path, body, requestId), e.pending, headers).from(e.name);
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
        HttpRequest r = HttpRequest.newBuilder(URI.create(e.url + "/lb/health")).timeout(PROBE_TIMEOUT).GET().build();
        return probes.sendAsync(r, HttpResponse.BodyHandlers.discarding()).handle((ok, failed) ->
                ok != null && ok.statusCode() == 200);
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
