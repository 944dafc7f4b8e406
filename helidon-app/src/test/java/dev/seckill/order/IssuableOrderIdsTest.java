package dev.seckill.order;

import dev.seckill.purchase.OrderIds;
import dev.seckill.sale.FakeSales;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IssuableOrderIdsTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Sale SALE = new Sale(1, "s", 1, 10, NOW.minusSeconds(3600), NOW.minusSeconds(1800));
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final IssuableOrderIds issuable = new IssuableOrderIds(new SaleCatalog(new FakeSales().add(SALE), clock),
            clock);

    private static long idAt(Instant t) {
        return new OrderIds(Clock.fixed(t, ZoneOffset.UTC), 3).next();
    }

    @Test
    void anIdMintedInsideASalesWindowIsLookedUp() {
        assertTrue(issuable.test(idAt(SALE.startsAt().plusSeconds(10))));
    }

    @Test
    void idsFromTheFutureOrFromNoSalesWindowAreNot() {
        assertFalse(issuable.test(0));
        assertFalse(issuable.test(-5));
        assertFalse(issuable.test(idAt(NOW.plusSeconds(3600))), "the future");
        assertFalse(issuable.test(idAt(SALE.endsAt().plusSeconds(600))), "after the only sale ended");
        assertFalse(issuable.test(idAt(SALE.startsAt().minusSeconds(600))), "before it started");
    }

    @Test
    void almostEveryRandomIdIsRefusedWithoutALookup() {
        int looked = 0;
        for (int i = 0; i < 10_000; i++) {
            if (issuable.test(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE))) {
                looked++;
            }
        }
        assertTrue(looked < 10, looked + " of 10,000 random ids would have been looked up");
    }
}
