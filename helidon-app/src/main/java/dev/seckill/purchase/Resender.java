package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.sale.Sale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongFunction;

/**
 * Sends again the orders whose send to Kafka failed, without waiting for their buyers to retry: a unit held for an
 * order nobody resends keeps its sale answering 503 (HELD) instead of SOLD_OUT until reconcile releases it. Each
 * pass looks at the sales of {@link UnsentSales}; an entry whose last send began at least {@code after} ago is
 * claimed first (unsent.lua stamps the new attempt's time, so reconcile, which releases only entries older than its
 * grace, cannot give the unit back while this send may still land), then published under its own id (a duplicate
 * of an order that did land is skipped by the writer), then forgotten (sent.lua). A send that fails again stays
 * for the next pass. Several instances may resend one entry at once: the same order id, written once.
 */
public final class Resender {

    private static final Logger LOG = LoggerFactory.getLogger(Resender.class);

    private final UnsentSales sales;
    private final LongFunction<Map<Long, String>> entries;
    private final LongFunction<Optional<Sale>> catalog;
    private final UnitLedger ledger;
    private final OrderPublisher publisher;
    private final Clock clock;
    private final long afterMillis;

    /**
     * @param entries a sale's unsent hash (userId to {@code "<orderId>:<ms>"})
     * @param catalog the sale by id (its price goes into the event)
     * @param after how long after an entry's last send attempt it is sent again
     */
    public Resender(UnsentSales sales, LongFunction<Map<Long, String>> entries, LongFunction<Optional<Sale>> catalog,
                    UnitLedger ledger, OrderPublisher publisher, Clock clock, Duration after) {
        this.sales = sales;
        this.entries = entries;
        this.catalog = catalog;
        this.ledger = ledger;
        this.publisher = publisher;
        this.clock = clock;
        this.afterMillis = after.toMillis();
    }

    /**
     * One pass: the reservations whose record could not be written are recorded first, then every tracked sale's
     * entries are looked at; the sends of a pass run at once. Returns how many orders it resent.
     */
    public int resendDue() {
        record();
        List<Future<Boolean>> sends = new ArrayList<>();
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (long saleId : sales.snapshot()) {
                Optional<Sale> sale = catalog.apply(saleId);
                Map<Long, String> held = entries.apply(saleId);
                if (held.isEmpty() || sale.isEmpty()) {
                    forget(saleId);
                    continue;
                }
                long now = clock.millis();
                held.forEach((user, value) -> {
                    UnsentSend entry = UnsentSend.parse(value);
                    if (now - entry.lastSendMillis() >= afterMillis) {
                        sends.add(each.submit(() -> resend(sale.get(), user, entry.orderId())));
                    }
                });
            }
        }
        return (int) sends.stream().filter(Future::resultNow).count();
    }

    /**
     * Writes the record of each unit held for an order no record speaks for, stamped now so reconcile gives it a
     * full grace: unsent.lua keeps nothing when the buyer's mark is not the order (a failover lost it with its
     * unit, or it was given back). One that Redis still fails stays for the next pass.
     */
    private void record() {
        for (UnsentSales.Unrecorded u : sales.unrecorded()) {
            try {
                boolean held = ledger.unsent(u.saleId(), u.userId(), u.orderId(), clock.millis());
                sales.recorded(u);
                LOG.info("order " + u.orderId() + " (sale " + u.saleId() + ", user "
                        + u.userId() + ") " + (held ? "recorded as unsent: it is sent" : "not confirmed as held (no mark, or "
                        + "its replicas short: then sent once they confirm it)"));
            } catch (DependencyUnavailable e) {
                LOG.atDebug().log(() -> "the record of order " + u.orderId() + " failed again, next "
                        + "pass: " + e.getMessage());
            }
        }
    }

    /** Stops tracking a sale with nothing held; an entry written meanwhile keeps it tracked. */
    private void forget(long saleId) {
        sales.remove(saleId);
        if (!entries.apply(saleId).isEmpty()) {
            sales.add(saleId);
        }
    }

    /** Claims, sends and forgets one entry; false when it was not this pass's to send or a step failed. */
    private boolean resend(Sale sale, long userId, long orderId) {
        try {
            if (!ledger.unsent(sale.id(), userId, orderId, clock.millis())) {
                return false;
            }
            // No request id: no client request is behind this send (the order's first one carried it).
            publisher.publish(OrderEvent.of(orderId, sale.id(), userId, sale.priceCents(),
                    OrderIds.createdAt(orderId).toEpochMilli()), null);
            ledger.sent(sale.id(), userId, orderId);
            return true;
        } catch (DependencyUnavailable e) {
            // Still held (or, if only sent.lua failed, in Kafka and resent once more: a duplicate the writer skips).
            LOG.atDebug().log(() -> "resend of order " + orderId + " failed, next pass: "
                    + e.getMessage());
            return false;
        }
    }

    /** Runs a pass every {@code every} on one virtual thread until closed. */
    public AutoCloseable start(Duration every) {
        Thread t = Thread.ofVirtual().name("seckill-resend").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(every);
                    int n = resendDue();
                    if (n > 0) {
                        LOG.info("resent " + n + " orders whose earlier send had failed");
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("failed to resend unsent orders: " + e.getMessage());
                }
            }
        });
        return t::interrupt;
    }
}
