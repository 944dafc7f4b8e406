package dev.seckill.chaos.settle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.chaos.load.AdminCalls;
import dev.seckill.chaos.load.RunSale;
import dev.seckill.testkit.Await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The end of a run, on a healed cluster: every sale's payment windows lapse and the expiry returns their units
 * (no CONFIRMED order left, no unit owed to Redis), then each sale is reconciled (again after a 409 WRITER_BEHIND, a
 * 503 or no answer, and while reservations younger than the grace are pending), then the writers catch up on each
 * (consumerLag 0). Each wait has a deadline; what did not settle in time is said, and the check runs anyway.
 */
public final class EndOfRun {

    private static final Duration RECONCILED = Duration.ofMinutes(3);
    private static final Duration CAUGHT_UP = Duration.ofMinutes(2);

    /** What the end found: the reconcile answers per sale, and what did not settle in time. */
    public record Outcome(Map<Long, JsonNode> reconciled, List<String> unsettled, long millis) {
    }

    private final AdminCalls admin;
    private final Consumer<String> log;

    public EndOfRun(AdminCalls admin, Consumer<String> log) {
        this.admin = admin;
        this.log = log;
    }

    public Outcome settle(List<RunSale> driven, List<Long> saleIds) throws InterruptedException {
        long t0 = System.currentTimeMillis();
        List<String> unsettled = new ArrayList<>();
        int window = driven.stream().mapToInt(RunSale::payWindowSeconds).max().orElse(30);
        Duration lapse = Duration.ofSeconds(window + 90);
        log.accept("waiting for the payment windows (up to " + window + " s) to lapse and the units to come back");
        for (long id : saleIds) {
            await(lapse, () -> stat(id, "dbConfirmed") == 0 && stat(id, "unitsOwed") == 0,
                    () -> "sale " + id + ": CONFIRMED orders or owed units left after " + lapse.toSeconds() + " s: "
                            + stats(id), unsettled);
        }
        Map<Long, JsonNode> reconciled = new LinkedHashMap<>();
        for (long id : saleIds) {
            await(RECONCILED, () -> {
                AdminCalls.Reply r = admin.reconcile(id);
                reconciled.put(id, r.answer().json());
                String code = r.answer().code();
                return r.answer().status() == 200 && ("ARCHIVED".equals(code)
                        || "RECONCILED".equals(code) && r.answer().json().path("pendingBuyers").asLong(0) == 0);
            }, () -> "sale " + id + ": not reconciled within " + RECONCILED.toSeconds() + " s: " + reconciled.get(id),
                    unsettled);
        }
        for (long id : saleIds) {
            await(CAUGHT_UP, () -> stat(id, "consumerLag") == 0,
                    () -> "sale " + id + ": the writers did not catch up within " + CAUGHT_UP.toSeconds() + " s",
                    unsettled);
        }
        unsettled.forEach(u -> log.accept("not settled: " + u));
        return new Outcome(reconciled, unsettled, System.currentTimeMillis() - t0);
    }

    private JsonNode stats(long id) {
        AdminCalls.Reply r = admin.stats(id);
        return r.answer().status() == 200 ? r.answer().json() : null;
    }

    /** One figure of the sale's stats; -1 when there is no answer. */
    private long stat(long id, String field) {
        JsonNode s = stats(id);
        return s == null ? -1 : s.path(field).asLong(-1);
    }

    /** Waits for {@code done}, asked once a second (each ask is an admin call); says what did not settle in time. */
    private static void await(Duration timeout, BooleanSupplier done, Supplier<String> notSettled,
                              List<String> unsettled) throws InterruptedException {
        boolean held = Await.poll(timeout, Duration.ofSeconds(1), done);
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while settling");
        }
        if (!held) {
            unsettled.add(notSettled.get());
        }
    }
}
