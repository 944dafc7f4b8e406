package dev.seckill.sale;

import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;

/** Builds what clients see of a sale: facts, approximate remaining stock, state, and the server's clock. */
public final class SaleViews {

    private static final Logger LOG = LoggerFactory.getLogger(SaleViews.class);

    private final RemainingStock stock;
    private final Clock clock;

    public SaleViews(RemainingStock stock, Clock clock) {
        this.stock = stock;
        this.clock = clock;
    }

    public SaleView view(Sale s) {
        Instant now = clock.instant();
        Long remaining = remaining(s.id());
        return new SaleView(s.id(), s.name(), s.priceCents(), s.stockTotal(), remaining,
                SaleState.of(s, now, remaining).name(), s.startsAt().toString(), s.endsAt().toString(), now.toString(),
                s.payWindowSeconds(), s.protection().wire(), s.waitingRoom() == null ? null
                : new SaleView.Line(s.waitingRoom().prequeueSeconds(), s.waitingRoom().admitSeconds(),
                s.waitingRoom().admitPerSecond(), s.waitingRoom().opensAt(s.startsAt()).toString()));
    }

    /** Remaining stock, or null when Redis cannot say (the view still answers, without it). */
    private Long remaining(long saleId) {
        try {
            return stock.remaining(saleId);
        } catch (RedisException e) {
            LOG.debug("failed to read remaining stock of sale " + saleId + ": " + e.getMessage());
            return null;
        }
    }
}
