package dev.seckill.archive;

import dev.seckill.order.OrderCounts;
import dev.seckill.order.OrderRepository;
import dev.seckill.purchase.BuyerMarks;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One archiving pass, without scheduling: every sale that ended within the look-back and is not archived yet is
 * judged ({@link Settlement}) and, once settled, archived ({@link SaleStock#archive}). Safe on every instance at
 * once: archiving twice changes nothing. A sale archived already gets its expiries again (EXPIRE NX), which
 * finishes a pass that died half-way.
 */
public final class Archiver {

    private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);
    /** Sales read per pass, the earliest ended first. */
    private static final int BATCH = 500;

    private final SaleRepository sales;
    private final SaleStock stock;
    private final BuyerMarks marks;
    private final OrderRepository orders;
    private final Clock clock;
    private final ArchiveSettings settings;

    public Archiver(SaleRepository sales, SaleStock stock, BuyerMarks marks, OrderRepository orders, Clock clock,
                    ArchiveSettings settings) {
        this.sales = sales;
        this.stock = stock;
        this.marks = marks;
        this.orders = orders;
        this.clock = clock;
        this.settings = settings;
    }

    /** @return the sales archived by this pass */
    public List<Long> run() {
        Instant now = clock.instant();
        List<Sale> ended = sales.ended(now.minus(ArchiveSettings.LOOK_BACK), now.minus(settings.grace()), BATCH);
        return ended.stream().filter(s -> archiveIfSettled(s, now.toEpochMilli())).map(Sale::id).toList();
    }

    private boolean archiveIfSettled(Sale sale, long now) {
        if (stock.archivedAt(sale.id()) != null) {
            stock.archive(sale.id(), now, settings.linger());
            return false;
        }
        OrderCounts counts = orders.countsForSale(sale.id());
        Settlement s = new Settlement(sale.endsAt().toEpochMilli(), now, marks.orders(sale.id()),
                orders.ordersOfSale(sale.id()), counts.confirmed(), orders.unitsOwed(sale.id()));
        Settlement.Verdict verdict = s.judge(settings.grace(), settings.retention());
        if (!Settlement.archivable(verdict)) {
            return false;
        }
        stock.archive(sale.id(), now, settings.linger());
        LOG.info("archived sale " + sale.id() + " (" + verdict + "): its Redis keys expire in "
                + settings.linger().toSeconds() + " s; its orders are read from the database");
        return true;
    }
}
