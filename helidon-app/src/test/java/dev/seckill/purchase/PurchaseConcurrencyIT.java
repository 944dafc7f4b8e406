package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.redis.Keys;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stock 100; 5,000 distinct users fire at once, plus 1,000 repeat attempts by the same users: exactly 100 are
 * accepted, one per user, Redis ends at 0, exactly 100 events with distinct (sale, user) are on the topic, and
 * every other answer is 409/410/429. A 503 is honest only as the contract's "no unit is held for you": on this
 * shared two-core machine a stalled Redis answer may time out, so a few are allowed (at most 1% of the attempts,
 * each with Retry-After), and the exact counts below still prove that none of them hid a unit.
 */
class PurchaseConcurrencyIT {

    private static final int STOCK = 100;
    private static final int USERS = 5_000;
    private static final int REPEATS = 1_000;
    private static final int CONNECTIONS = 256;

    private static final int MAX_UNAVAILABLE = (USERS + REPEATS) / 100;

    private final ServiceClient svc = new ServiceClient();

    @Test
    void aStampedeSellsExactlyTheStockOncePerUser() throws Exception {
        long sale = svc.activeSale(STOCK);
        List<Long> attempts = new ArrayList<>();
        long firstUser = ServiceClient.newUser();
        for (int i = 0; i < USERS; i++) {
            attempts.add(firstUser + i);
            ServiceClient.newUser();
        }
        for (int i = 0; i < REPEATS; i++) {
            attempts.add(firstUser + (i * 7L) % USERS);
        }
        Collections.shuffle(attempts, new java.util.Random(42));
        Map<String, String> tokens = new HashMap<>();
        attempts.forEach(u -> tokens.computeIfAbsent(Long.toString(u), k -> svc.token(u)));

        Map<Integer, Integer> byStatus = new ConcurrentHashMap<>();
        Map<Long, Set<String>> acceptedByUser = new ConcurrentHashMap<>();
        Set<String> unavailableWithoutRetryAfter = ConcurrentHashMap.newKeySet();
        CountDownLatch go = new CountDownLatch(1);
        Semaphore connections = new Semaphore(CONNECTIONS);
        HttpJson http = new HttpJson();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (long user : attempts) {
                futures.add(pool.submit(() -> {
                    go.await();
                    connections.acquire();
                    try {
                        HttpJson.Response r = http.post(svc.base + "/api/sales/" + sale + "/purchase", null,
                                "Authorization", HttpJson.bearer(tokens.get(Long.toString(user))));
                        byStatus.merge(r.status(), 1, Integer::sum);
                        if (r.status() == 202) {
                            acceptedByUser.computeIfAbsent(user, k -> ConcurrentHashMap.newKeySet())
                                    .add(r.json().path("orderId").asText());
                        }
                        if (r.status() == 503 && (!"UNAVAILABLE".equals(r.code())
                                || r.header("Retry-After") == null)) {
                            unavailableWithoutRetryAfter.add(r.body());
                        }
                    } finally {
                        connections.release();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        }

        System.out.println("stampede answers by status: " + byStatus);
        assertEquals(STOCK, byStatus.getOrDefault(202, 0), "accepted " + byStatus);
        assertTrue(acceptedByUser.values().stream().allMatch(s -> s.size() == 1), "a user was accepted twice");
        assertEquals(STOCK, acceptedByUser.size());
        Set<Integer> allowed = Set.of(202, 409, 410, 429, 503);
        assertTrue(allowed.containsAll(byStatus.keySet()), "unexpected statuses " + byStatus);
        assertTrue(byStatus.getOrDefault(503, 0) <= MAX_UNAVAILABLE, "too many 503 " + byStatus);
        assertTrue(unavailableWithoutRetryAfter.isEmpty(), "503 without UNAVAILABLE and Retry-After: "
                + unavailableWithoutRetryAfter);

        assertEquals(0L, Long.parseLong(svc.stats(sale).path("redisRemaining").asText()));
        assertEquals(STOCK, svc.stats(sale).path("redisBuyers").asLong());

        List<OrderEvent> events = TopicReader.eventsOf(sale);
        assertEquals(STOCK, events.size(), "events on the topic");
        Set<Long> users = new HashSet<>();
        events.forEach(e -> users.add(e.userId()));
        assertEquals(STOCK, users.size(), "distinct users on the topic");
        assertEquals(acceptedByUser.keySet(), users, "the accepted users are the ones on the topic");
        assertTrue(Keys.stock(sale).startsWith("{sk:" + sale + "}"));
    }
}
