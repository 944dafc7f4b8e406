package dev.seckill.check;

import dev.seckill.purchase.OrderIds;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A sale's history and final state built by hand: each step adds the answers a client got and the rows and keys a
 * sound system leaves for them, so {@link #state()} adds up unless a test breaks one thing on purpose.
 */
final class SaleFixture {

    static final long SALE = 7;
    private static final long PAY_BY = 1_800_000_000_000L;

    private final int total;
    private final List<Op> ops = new ArrayList<>();
    private final List<FinalOrder> rows = new ArrayList<>();
    private final Map<Long, Long> marks = new LinkedHashMap<>();
    private final Set<Long> returned = new TreeSet<>();
    private final Set<Long> unitReturns = new HashSet<>();
    private final Map<Long, String> unsent = new LinkedHashMap<>();
    private final Map<String, String> meta = new LinkedHashMap<>(Map.of("start", "1", "end", "2"));
    /** The client's clock (epoch ms), after the order ids the tests spell by hand (101, ...) were minted. */
    private long clock = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    /** Adjustments a test makes to what a sound system would leave. */
    int dbStockOff;
    int remainingOff;
    boolean keysGone;

    SaleFixture(int total) {
        this.total = total;
        op(OpKind.CREATE_SALE, 0, 201, null, null, total);
    }

    /** An answer to {@code user}; returns it (request id {@code r<n>}). */
    Op op(OpKind kind, long user, int status, String code, Long orderId) {
        return op(kind, user, status, code, orderId, 0);
    }

    private Op op(OpKind kind, long user, int status, String code, Long orderId, int units) {
        long id = ops.size() + 1;
        clock += 10;
        Op op = new Op(id, kind, "r" + id, SALE, user, units, clock, clock + 5, status, code,
                orderId == null ? null : Long.toString(orderId), "service-1", null);
        ops.add(op);
        return op;
    }

    /** The fixture's clock now: the last operation's start. */
    long now() {
        return clock;
    }

    /** Lets {@code millis} pass before the next operation. */
    void pass(long millis) {
        clock += millis;
    }

    /** An order id as a service minting it {@code millis} after {@link #now()} would. */
    long idIn(long millis) {
        return new OrderIds(Clock.fixed(Instant.ofEpochMilli(clock + millis), ZoneOffset.UTC), 1).next();
    }

    Op purchase(long user, int status, String code, Long orderId) {
        return op(OpKind.PURCHASE, user, status, code, orderId);
    }

    /** The order's row, its buyer mark, and (when it expired) its unit back in Redis. */
    SaleFixture row(long user, long order, FinalOrder.State state, boolean paid) {
        rows.add(new FinalOrder(order, user, state, PAY_BY, null, paid));
        marks.putIfAbsent(user, order);
        if (state == FinalOrder.State.EXPIRED) {
            returned.add(order);
        }
        return this;
    }

    /** A 202 and its CONFIRMED row. */
    SaleFixture bought(long user, long order) {
        purchase(user, 202, "QUEUED", order);
        return row(user, order, FinalOrder.State.CONFIRMED, false);
    }

    /** A 202, a pay answered 200 and the PAID row with its payment. */
    SaleFixture boughtAndPaid(long user, long order) {
        purchase(user, 202, "QUEUED", order);
        op(OpKind.PAY, user, 200, "PAID", order);
        return row(user, order, FinalOrder.State.PAID, true);
    }

    /** A 202 and the row that expired unpaid, its unit given back. */
    SaleFixture boughtAndLapsed(long user, long order) {
        purchase(user, 202, "QUEUED", order);
        return row(user, order, FinalOrder.State.EXPIRED, false);
    }

    List<Op> history() {
        return List.copyOf(ops);
    }

    List<FinalOrder> rows() {
        return rows;
    }

    Map<Long, Long> marks() {
        return marks;
    }

    Set<Long> returned() {
        return returned;
    }

    Set<Long> unitReturns() {
        return unitReturns;
    }

    /** The unsent hash: user to "orderId:ms", a send still owed. */
    Map<Long, String> unsent() {
        return unsent;
    }

    Map<String, String> meta() {
        return meta;
    }

    FinalState state() {
        int live = (int) rows.stream().filter(FinalOrder::live).count();
        RedisSale redis = keysGone
                ? new RedisSale("redis-1", null, Map.of(), Set.of(), Map.of(), Map.copyOf(meta), List.of())
                : new RedisSale("redis-1", (long) (total - live + remainingOff), Map.copyOf(marks), Set.copyOf(returned),
                Map.copyOf(unsent), Map.copyOf(meta), List.of());
        int stock = Math.max(0, total - live + dbStockOff);
        return new FinalState(List.of(new FinalSale(SALE, true, total, stock, List.copyOf(rows),
                Set.copyOf(unitReturns), redis)));
    }

    Verdict check() {
        return Checker.check(history(), state());
    }
}
