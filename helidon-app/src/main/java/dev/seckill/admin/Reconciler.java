package dev.seckill.admin;

import dev.seckill.order.OrderRepository;
import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.DeliveryTimeout;
import dev.seckill.purchase.OrderIds;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.purchase.Reopener;
import dev.seckill.purchase.UnsentSend;
import dev.seckill.sale.DbStock;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.StockChange;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compares a sale's Redis state (remaining, buyers -> order id) with the database (stock, orders) once the writer
 * has caught up, and repairs what a crash or a data loss left behind (docs/contract.md, what a crash can do). The
 * steps, in order:
 * <ol>
 *   <li>rebuild: Redis keys missing: buyers from the DB orders (expired ones too: they keep their marks), the
 *   expired orders as returned, then remaining = total - live orders (until then purchases of the sale answer 503,
 *   because purchase.lua finds no keys);</li>
 *   <li>release: a buyer in Redis with no DB order whose every send is older than the grace period (longer than
 *   the producer's delivery timeout, so an event handed to Kafka has landed): the order id's own age, and the last
 *   resend its unsent entry records. The service died between the script and the Kafka ack, or a send failed and
 *   the buyer never retried; the unit goes back, atomically refused if a resend began meanwhile;</li>
 *   <li>unsent: an unsent entry whose order is written (the failed send did land) or, once settled, no longer the
 *   buyer's mark: dropped, so no retry resends it;</li>
 *   <li>mark: a DB order with no buyer mark (Redis lost data): the mark is put back;</li>
 *   <li>returned: an EXPIRED order, marked in Redis, whose order id the returned set lacks (its release never ran,
 *   or Redis lost it): it is added, without a unit; the next step counts the unit;</li>
 *   <li>conserve: remaining = total - (buyers - returned), set inside Redis (atomic with purchases and
 *   releases);</li>
 *   <li>DB stock: a stock column that disagrees with the written orders is repaired.</li>
 * </ol>
 * A dry run runs the same steps on {@link DryRunRepairs}: it reports the same actions without doing them.
 */
public final class Reconciler {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final BuyerMarks marks;
    private final RedisUnitLedger ledger;
    private final OrderRepository orders;
    private final ConsumerLag lag;
    private final Clock clock;
    private final Duration minGrace;
    private final Repairs live;

    public Reconciler(SaleRepository sales, SaleStock stock, BuyerMarks marks, OrderRepository orders,
                      RedisUnitLedger ledger, Reopener reopener, ConsumerLag lag, Clock clock,
                      DeliveryTimeout delivery) {
        this.sales = sales;
        this.stock = stock;
        this.marks = marks;
        this.ledger = ledger;
        this.orders = orders;
        this.lag = lag;
        this.clock = clock;
        this.minGrace = delivery.settled();
        this.live = new LiveRepairs(stock, marks, ledger, sales, reopener);
    }

    /** The smallest grace period allowed: a send older than this has landed in Kafka or failed. */
    public Duration minGrace() {
        return minGrace;
    }

    /** What one repair is (or would be, in a dry run). */
    public enum Kind { REBUILT, RELEASED, UNSENT_DROPPED, MARKED, RETURNED, STOCK_SET, DB_STOCK_SET }

    /** One repair; {@code userId} and {@code orderId} are set for the repairs of one buyer. */
    public record Action(Kind kind, Long userId, String orderId, String detail) {

        static Action of(Kind kind, String detail) {
            return new Action(kind, null, null, detail);
        }
    }

    /**
     * What reconcile found and did; {@code writerLag > 0} means it did nothing and must be retried, {@code archived}
     * that the sale was settled and archived (its keys leave Redis on purpose: nothing to rebuild or repair there).
     */
    public record Report(long saleId, boolean dryRun, long writerLag, int pendingBuyers, List<Action> actions,
                         boolean archived) {

        Report(long saleId, boolean dryRun, long writerLag, int pendingBuyers, List<Action> actions) {
            this(saleId, dryRun, writerLag, pendingBuyers, actions, false);
        }

        public boolean writerBehind() {
            return writerLag > 0;
        }
    }

    /** The release step's result: what it released, and the young reservations it left alone. */
    private record Releases(List<Action> actions, int pending) {
    }

    public Report reconcile(Sale sale, boolean dryRun, Duration grace) {
        if (grace.compareTo(minGrace) < 0) {
            throw new IllegalArgumentException("grace must be at least " + minGrace.toSeconds() + " s");
        }
        long behind = lag.total();
        if (behind > 0) {
            return new Report(sale.id(), dryRun, behind, 0, List.of());
        }
        Repairs repairs = dryRun ? new DryRunRepairs(stock, marks, ledger) : live;
        if (stock.archivedAt(sale.id()) != null) {
            // Settled and archived: its Redis keys leave on purpose, so only the database's stock is checked.
            return new Report(sale.id(), dryRun, 0, 0, repairDbStock(sale.id(), repairs).stream().toList(), true);
        }
        Map<Long, Long> written = orders.ordersOfSale(sale.id());
        Set<Long> expired = orders.expiredOfSale(sale.id());
        List<Action> actions = new ArrayList<>();
        int pending = 0;
        if (!stock.keysPresent(sale.id())) {
            actions.add(rebuild(sale, written, expired, repairs));
        } else {
            Map<Long, Long> buyers = marks.orders(sale.id());
            Map<Long, UnsentSend> unsent = unsent(sale.id());
            long now = clock.millis();
            long settledBefore = now - grace.toMillis();
            Releases releases = release(sale.id(), buyers, written, unsent, now, settledBefore, repairs);
            actions.addAll(releases.actions());
            pending = releases.pending();
            actions.addAll(dropUnsent(sale.id(), buyers, written, unsent, settledBefore, repairs));
            actions.addAll(mark(sale.id(), buyers, written, repairs));
            actions.addAll(returned(sale.id(), buyers, written, expired, repairs));
            conserve(sale, repairs).ifPresent(actions::add);
        }
        repairDbStock(sale.id(), repairs).ifPresent(actions::add);
        return new Report(sale.id(), dryRun, 0, pending, actions);
    }

    private static Action rebuild(Sale sale, Map<Long, Long> written, Set<Long> expired, Repairs repairs) {
        repairs.rebuild(sale, written, expired);
        return Action.of(Kind.REBUILT, "stock and window from the DB, " + written.size() + " buyers from its orders, "
                + expired.size() + " of them expired");
    }

    private Map<Long, UnsentSend> unsent(long saleId) {
        Map<Long, UnsentSend> out = new HashMap<>();
        ledger.unsentSends(saleId).forEach((user, value) -> out.put(user, UnsentSend.parse(value)));
        return out;
    }

    /**
     * A reservation is settled once its latest send began before {@code settledBefore}: its id's creation (the first
     * send), or the resend its unsent entry records. Kafka has then written it or failed it for good, and the
     * writer's lag of 0 says a written one is in {@code written}.
     */
    private static Releases release(long saleId, Map<Long, Long> buyers, Map<Long, Long> written,
                                    Map<Long, UnsentSend> unsent, long now, long settledBefore, Repairs repairs) {
        List<Action> actions = new ArrayList<>();
        int pending = 0;
        for (var b : buyers.entrySet()) {
            long user = b.getKey();
            long order = b.getValue();
            if (written.containsKey(user)) {
                continue;
            }
            UnsentSend entry = unsent.get(user);
            long since = entry != null && entry.orderId() == order ? entry.settlingSince()
                    : OrderIds.createdAt(order).toEpochMilli();
            if (since >= settledBefore || !repairs.release(saleId, user, order, settledBefore)) {
                // Still settling, or a resend began after the entry was read (compensate.lua refused): next run.
                pending++;
                continue;
            }
            actions.add(new Action(Kind.RELEASED, user, Long.toString(order),
                    "last sent " + (now - since) / 1000 + " s ago, never written: its unit goes back"));
        }
        return new Releases(actions, pending);
    }

    /**
     * Unsent entries no reservation needs: the order is written (the failed send did land, or a resend did), or the
     * buyer's mark is another order or none (Redis lost the mark, or a rebuild left the entry) and the entry is
     * settled. Left in place, the first would resend a written order (a duplicate, 202 again, harmless), the second
     * nothing at all; dropping them keeps the hash to reservations that wait for a resend.
     */
    private static List<Action> dropUnsent(long saleId, Map<Long, Long> buyers, Map<Long, Long> written,
                                           Map<Long, UnsentSend> unsent, long settledBefore, Repairs repairs) {
        List<Action> actions = new ArrayList<>();
        for (var u : unsent.entrySet()) {
            long user = u.getKey();
            UnsentSend entry = u.getValue();
            boolean isWritten = Long.valueOf(entry.orderId()).equals(written.get(user));
            boolean orphan = !Long.valueOf(entry.orderId()).equals(buyers.get(user))
                    && entry.settlingSince() < settledBefore;
            if (isWritten || orphan) {
                repairs.dropUnsent(saleId, user, entry.orderId());
                actions.add(new Action(Kind.UNSENT_DROPPED, user, Long.toString(entry.orderId()), isWritten
                        ? "its failed send did land: the order is written" : "no reservation holds this order"));
            }
        }
        return actions;
    }

    private static List<Action> mark(long saleId, Map<Long, Long> buyers, Map<Long, Long> written, Repairs repairs) {
        List<Action> actions = new ArrayList<>();
        for (var w : written.entrySet()) {
            if (!buyers.containsKey(w.getKey())) {
                repairs.mark(saleId, w.getKey(), w.getValue());
                actions.add(new Action(Kind.MARKED, w.getKey(), Long.toString(w.getValue()),
                        "written order had no buyer mark in Redis"));
            }
        }
        return actions;
    }

    /**
     * Expired orders whose unit the returned set does not count. Only where the buyer's mark is that order (as it
     * is, or as the mark step just put it back): the returned set must stay within the marks for conserve.lua's sum.
     */
    private List<Action> returned(long saleId, Map<Long, Long> buyers, Map<Long, Long> written, Set<Long> expired,
                                  Repairs repairs) {
        if (expired.isEmpty()) {
            return List.of();
        }
        Set<Long> counted = ledger.returnedOrders(saleId);
        List<Action> actions = new ArrayList<>();
        for (var w : written.entrySet()) {
            long orderId = w.getValue();
            Long mark = buyers.getOrDefault(w.getKey(), orderId);
            if (expired.contains(orderId) && !counted.contains(orderId) && mark == orderId) {
                repairs.returned(saleId, orderId);
                actions.add(new Action(Kind.RETURNED, w.getKey(), Long.toString(orderId),
                        "expired order's unit was not counted back in Redis"));
            }
        }
        return actions;
    }

    private static Optional<Action> conserve(Sale sale, Repairs repairs) {
        StockChange change = repairs.conserve(sale);
        return change.changed()
                ? Optional.of(Action.of(Kind.STOCK_SET, "remaining " + change.before() + " -> " + change.after()))
                : Optional.empty();
    }

    private Optional<Action> repairDbStock(long saleId, Repairs repairs) {
        DbStock db = sales.dbStock(saleId);
        if (db.agrees()) {
            return Optional.empty();
        }
        repairs.repairDbStock(saleId);
        return Optional.of(Action.of(Kind.DB_STOCK_SET, "db stock " + db.actual() + " -> " + db.expected()));
    }
}
