package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** purchase.lua's replies mapped to outcomes: the one mapping, every code (the script itself: ScriptsIT). */
class RedisStockReserverTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static PurchaseOutcome reply(long code, Object data) {
        return RedisStockReserver.outcome(SALE, 900, List.of(code, data));
    }

    @Test
    void everyCodeOfTheScriptMapsToItsOutcome() {
        assertEquals(new PurchaseOutcome.Queued("900"), reply(0, 4L));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("800"), reply(1, "800"));
        assertEquals(new PurchaseOutcome.SoldOut(false), reply(2, 0L));
        assertEquals(new PurchaseOutcome.NotStarted(SALE.startsAt(), 1500), reply(3, 1500L));
        assertEquals(new PurchaseOutcome.SaleEnded(), reply(4, 0L));
        assertEquals(new PurchaseOutcome.RateLimited(250), reply(5, 250L));
    }

    @Test
    void missingKeysAreUnavailableNeverSoldOut() {
        assertThrows(DependencyUnavailable.class, () -> reply(-1, 0L));
    }

    @Test
    void anUnknownCodeIsABug() {
        assertThrows(IllegalStateException.class, () -> reply(9, 0L));
    }
}
