package dev.seckill.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A flash-sale crowd against one sale: every user clicks at once (a virtual thread each, at most
 * {@code connections} requests in flight), and keeps trying, up to {@code attemptsPerUser} clicks, until it hears
 * a final answer (202, 409, 410, 404, 401). Each user comes from its own client address (X-Forwarded-For, which
 * the edge believes only from trusted proxies such as the test stack's loopback). Bounded in count and time.
 */
public final class Stampede {

    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern ORDER = Pattern.compile("\"orderId\"\\s*:\\s*\"([0-9]+)\"");

    /** A signed-in shopper. */
    public record User(long id, String token) {
    }

    /**
     * What to run. {@code pauseMillis} spreads the shoppers' clicks after a 429, 503 or no answer: a shopper waits the
     * answer's Retry-After (as the sale page does) plus up to that long, or without one half to one and a half times
     * it.
     */
    public record Plan(String baseUrl, long saleId, List<User> users, int attemptsPerUser, int connections,
                       Duration maxDuration, long pauseMillis) {
    }

    private Stampede() {
    }

    /** Runs the plan and returns every attempt, in no particular order. */
    public static List<Attempt> run(Plan plan) throws InterruptedException {
        List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
        run(plan, attempts);
        return new ArrayList<>(attempts);
    }

    /** Runs the plan, adding each attempt to {@code attempts} (synchronized) as it completes, so callers can watch. */
    public static void run(Plan plan, List<Attempt> attempts) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create(plan.baseUrl() + "/api/sales/" + plan.saleId() + "/purchase");
        Semaphore inFlight = new Semaphore(plan.connections());
        CountDownLatch go = new CountDownLatch(1);
        long start = System.nanoTime();
        long deadline = start + plan.maxDuration().toNanos();
        List<User> order = new ArrayList<>(plan.users());
        Collections.shuffle(order, new Random(plan.saleId()));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (User u : order) {
                pool.submit(() -> {
                    go.await();
                    shopper(http, uri, u, plan, inFlight, start, deadline, attempts);
                    return null;
                });
            }
            go.countDown();
            pool.shutdown();
            if (!pool.awaitTermination(plan.maxDuration().toSeconds() + 60, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        }
    }

    private static void shopper(HttpClient http, URI uri, User u, Plan plan, Semaphore inFlight, long start,
                                long deadline, List<Attempt> out) throws InterruptedException {
        String clientIp = "10." + ((u.id() >> 16) & 255) + "." + ((u.id() >> 8) & 255) + "." + (u.id() & 255);
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + u.token())
                .header("X-Forwarded-For", clientIp)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        for (int i = 0; i < plan.attemptsPerUser() && System.nanoTime() < deadline; i++) {
            inFlight.acquire();
            long t0 = System.nanoTime();
            Attempt a;
            long retryAfterMillis = -1;
            try {
                HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                a = new Attempt(u.id(), t0 - start, System.nanoTime() - t0, r.statusCode(), match(CODE, r.body()),
                        match(ORDER, r.body()));
                retryAfterMillis = retryAfterMillis(r);
            } catch (IOException e) {
                // No answer at all (connection refused or reset): recorded as status 0, never as a success.
                a = new Attempt(u.id(), t0 - start, System.nanoTime() - t0, 0, "NO_ANSWER", null);
            } finally {
                inFlight.release();
            }
            out.add(a);
            if (a.status() != 429 && a.status() != 503 && a.status() != 0) {
                return;
            }
            // A shopper who is told when to retry waits that long (issue 18: the edge's total admission answers 429
            // at once while the service is stuck, and a crowd that ignored Retry-After would spend its patience in
            // a second, long before the service is back).
            long jitter = ThreadLocalRandom.current().nextLong(plan.pauseMillis() + 1);
            Thread.sleep(retryAfterMillis >= 0 ? retryAfterMillis + jitter : plan.pauseMillis() / 2 + jitter);
        }
    }

    /** The answer's Retry-After in milliseconds (whole seconds, as the contract sends it), or -1 without one. */
    private static long retryAfterMillis(HttpResponse<String> r) {
        return r.headers().firstValue("Retry-After").filter(v -> v.matches("[0-9]{1,4}"))
                .map(v -> Long.parseLong(v) * 1000).orElse(-1L);
    }

    private static String match(Pattern p, String body) {
        Matcher m = p.matcher(body);
        return m.find() ? m.group(1) : null;
    }
}
