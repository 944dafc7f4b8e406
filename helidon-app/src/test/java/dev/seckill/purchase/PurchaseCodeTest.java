package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** purchase.lua's replies mapped to outcomes: the one mapping, every code (the script itself: ScriptsIT). */
class PurchaseCodeTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static PurchaseOutcome reply(long code, Object data) {
        return PurchaseCode.outcome(SALE, 900, List.of(code, data));
    }

    @Test
    void everyCodeOfTheScriptsHeaderIsOneConstant() {
        assertEquals(List.of(PurchaseCode.MISSING, PurchaseCode.QUEUED, PurchaseCode.ALREADY_PURCHASED,
                        PurchaseCode.SOLD_OUT, PurchaseCode.NOT_STARTED, PurchaseCode.SALE_ENDED,
                        PurchaseCode.RATE_LIMITED, PurchaseCode.RESEND, PurchaseCode.HELD, PurchaseCode.FENCED),
                LongStream.rangeClosed(-1, 8).mapToObj(PurchaseCode::of).toList());
    }

    @Test
    void everyCodeOfTheScriptMapsToItsOutcome() {
        assertEquals(new PurchaseOutcome.Queued("900"), reply(0, 4L));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("800"), reply(1, "800"));
        assertEquals(new PurchaseOutcome.SoldOut(false), reply(2, 0L));
        assertEquals(new PurchaseOutcome.NotStarted(SALE.startsAt(), 1500), reply(3, 1500L));
        assertEquals(new PurchaseOutcome.SaleEnded(), reply(4, 0L));
        assertEquals(new PurchaseOutcome.RateLimited(250), reply(5, 250L));
        assertEquals(new PurchaseOutcome.Queued("800"), reply(6, "800"), "RESEND: queued again under the earlier id");
    }

    @Test
    void theBuyersOwnOrderIdIsItsReservationNotAnEarlierPurchase() {
        // A script the client re-sent after its answer was lost finds the mark the first run made.
        assertEquals(new PurchaseOutcome.Queued("900"), reply(1, "900"));
    }

    @Test
    void missingKeysAreUnavailableNeverSoldOut() {
        assertThrows(DependencyUnavailable.class, () -> reply(-1, 0L));
    }

    @Test
    void noStockButUnitsHeldForResendsIsUnavailableNeverSoldOut() {
        assertThrows(UnitsHeld.class, () -> reply(7, 3L));
    }

    @Test
    void aFencedOrderIsUnavailableAndHoldsNothing() {
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class, () -> reply(8, 0L));
        assertTrue(e.getMessage().contains("reserved nothing"), e.getMessage());
    }

    @Test
    void anUnknownCodeIsABug() {
        assertThrows(IllegalStateException.class, () -> reply(9, 0L));
    }
}
