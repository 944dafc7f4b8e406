package dev.seckill.sale;

import dev.seckill.http.Answers;
import org.redisson.client.RedisException;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/** A sale as clients see it: facts, approximate remaining stock, state, and the server's clock for countdowns. */
public final class SaleViews {

    private static final System.Logger LOG = System.getLogger(SaleViews.class.getName());

    private final SaleStock stock;
    private final Clock clock;

    public SaleViews(SaleStock stock, Clock clock) {
        this.stock = stock;
        this.clock = clock;
    }

    public Map<String, Object> view(Sale s) {
        Instant now = clock.instant();
        Long remaining = remaining(s.id());
        return Answers.body("id", s.id(), "name", s.name(), "priceCents", s.priceCents(), "stockTotal", s.stockTotal(),
                "remaining", remaining, "state", SaleState.of(s, now, remaining).name(),
                "startsAt", s.startsAt().toString(), "endsAt", s.endsAt().toString(), "serverTime", now.toString());
    }

    /** Remaining stock, or null when Redis cannot say (the view still answers, without it). */
    private Long remaining(long saleId) {
        try {
            return stock.remaining(saleId);
        } catch (RedisException e) {
            LOG.log(System.Logger.Level.DEBUG, "failed to read remaining stock of sale " + saleId + ": " + e.getMessage());
            return null;
        }
    }
}
