package dev.seckill.check;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.Stampede;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker on a real stack: buys through the edge, records every answer as the chaos workload does, reads the
 * final state from MySQL and Redis directly and finds no violation. One sale is bought out and one order paid; in
 * another, every order lapses (a one-second pay window) and its unit is sold again.
 */
class FinalStateIT {

    private static final Duration SETTLED = Duration.ofSeconds(90);

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final AdminSales sales = new AdminSales(stack, http);
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    private final List<Op> history = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong ids = new AtomicLong();
    private final long firstUser = ThreadLocalRandom.current().nextLong(1_000_000, 1_000_000_000) * 100;

    @Test
    void aRunOnTheStackHoldsEveryAnswerAgainstItsFinalState() {
        long bought = create(sales.active("chaos-check-", 3), 3);
        long lapsing = create(sales.sale("chaos-check-lapse-").stock(2).with("payWindowSeconds", 1).create(), 2);
        // Four shoppers for three units, each clicking twice: three 202s, their 409s, SOLD_OUT for the fourth.
        for (int click = 0; click < 2; click++) {
            for (int u = 0; u < 4; u++) {
                purchase(bought, firstUser + u);
            }
        }
        String paidOrder = granted(bought).getFirst().orderId();
        Await.until(SETTLED, () -> pay(firstUser, paidOrder) == 200, "order " + paidOrder + " to be paid");
        purchase(lapsing, firstUser + 10);
        purchase(lapsing, firstUser + 11);
        // Both lapse and give their units back; a third shopper buys one of them, and lapses in turn.
        Await.until(SETTLED, () -> settled(read(lapsing), 2), "the lapsing sale's two orders to expire and return");
        purchase(lapsing, firstUser + 12);
        Await.until(SETTLED, () -> settled(read(lapsing), 3), "the resold unit's order to expire and return");
        Await.until(SETTLED, () -> read(bought).orders().size() == 3, "the bought-out sale's three rows");

        FinalState state = FinalState.read(stack, List.of(bought, lapsing));
        Verdict v = Checker.check(List.copyOf(history), state);
        assertTrue(v.holds(), v.summary());
        assertEquals(List.of(), v.exceptions(), v.exceptionLines());
        assertEquals(6, v.counts().answers().get("PURCHASE 202 QUEUED"), v.counts().answers().toString());
        FinalSale lapsed = state.sale(lapsing).orElseThrow();
        assertEquals(2L, lapsed.redis().remaining());
        assertEquals(3, lapsed.redis().returned().size());
        assertEquals(3, state.sale(bought).orElseThrow().redis().buyers().size());

        // The same state against one 202 more, naming an order nobody wrote: the check is not vacuous.
        List<Op> withALie = new ArrayList<>(history);
        withALie.add(new Op(ids.incrementAndGet(), OpKind.PURCHASE, "chk-lie", bought, firstUser + 3, 0, 0, 0, 202,
                "QUEUED", "1", null, null));
        Verdict lie = Checker.check(withALie, state);
        assertEquals(List.of(Violation.Kind.LOST_ORDER), lie.violations().stream().map(Violation::kind).toList(),
                lie.summary());
    }

    private long create(long saleId, int units) {
        history.add(new Op(ids.incrementAndGet(), OpKind.CREATE_SALE, "create-" + saleId, saleId, 0, units,
                System.currentTimeMillis(), System.currentTimeMillis(), 201, null, null, "service", null));
        return saleId;
    }

    private void purchase(long saleId, long user) {
        String requestId = "chk-" + user + "-" + ids.get();
        long start = System.currentTimeMillis();
        HttpJson.Response r = http.post(stack.publicUrl() + "/api/sales/" + saleId + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(user)), "X-Forwarded-For", Stampede.address(user),
                "X-Request-Id", requestId);
        history.add(new Op(ids.incrementAndGet(), OpKind.PURCHASE, requestId, saleId, user, 0, start,
                System.currentTimeMillis(), r.status(), r.json().path("code").textValue(),
                r.json().path("orderId").textValue(), null, null));
    }

    private int pay(long user, String orderId) {
        String requestId = "chk-pay-" + ids.get();
        long start = System.currentTimeMillis();
        HttpJson.Response r = http.post(stack.publicUrl() + "/api/orders/" + orderId + "/pay", null,
                "Authorization", HttpJson.bearer(signer.mint(user)), "X-Forwarded-For", Stampede.address(user),
                "X-Request-Id", requestId, "Idempotency-Key", "chk-" + orderId);
        history.add(new Op(ids.incrementAndGet(), OpKind.PAY, requestId, 0, user, 0, start,
                System.currentTimeMillis(), r.status(), r.json().path("code").textValue(), orderId, null, null));
        return r.status();
    }

    private List<Op> granted(long saleId) {
        List<Op> out = history.stream().filter(o -> o.saleId() == saleId && o.status() == 202).toList();
        assertEquals(3, out.size(), "three of four shoppers buy the three units: " + history);
        return out;
    }

    private FinalSale read(long saleId) {
        return FinalState.read(stack, List.of(saleId)).sales().getFirst();
    }

    /** {@code orders} rows, every one expired and its unit back in Redis. */
    private static boolean settled(FinalSale s, int orders) {
        return s.orders().size() == orders && s.orders().stream().noneMatch(FinalOrder::live)
                && s.unitReturns().isEmpty() && s.redis().returned().size() == orders;
    }
}
