package dev.seckill.admin;

import dev.seckill.admin.Disagreement.Kind;
import dev.seckill.order.OrderRow;
import dev.seckill.order.OrderState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conservation invariant as the stats judge it, as sets: each broken state is handed to it and must be named by
 * the exact disagreement, a check that has never failed being no check.
 */
class SaleStatsTest {

    /**
     * A sale of 10 units, sound: users 1..3 CONFIRMED (orders 101..103), user 4 PAID (104), users 5 and 6 EXPIRED
     * (105, 106; their units back and their marks kept). Live rows 4: Redis remaining 6, DB stock 6.
     */
    private static final class Sale {
        long dbStock = 6;
        Long remaining = 6L;
        final Map<Long, Long> buyers = new HashMap<>();
        final Set<Long> returned = new HashSet<>(Set.of(105L, 106L));
        final List<OrderRow> rows = new ArrayList<>();
        long owed;
        long lag;
        boolean archived;

        Sale() {
            for (long u = 1; u <= 6; u++) {
                buyers.put(u, 100 + u);
                rows.add(new OrderRow(u, 100 + u, u <= 3 ? OrderState.CONFIRMED
                        : u == 4 ? OrderState.PAID : OrderState.EXPIRED));
            }
        }

        SaleStats stats() {
            return new SaleStats(1, 10, dbStock, remaining, buyers, returned, rows, owed, lag, archived);
        }

        List<Kind> kinds() {
            return stats().disagreements().stream().map(Disagreement::kind).toList();
        }

        void dropRow(long user) {
            rows.removeIf(r -> r.userId() == user);
        }
    }

    @Test
    void marksAndRowsThatAgreeOneToOneAreConsistent() {
        Sale s = new Sale();
        assertEquals(List.of(), s.stats().disagreements());
        assertTrue(s.stats().consistent());
        assertEquals(6, s.stats().redisBuyers());
        assertEquals(2, s.stats().redisReturned());
        assertEquals(3, s.stats().orders().confirmed());
    }

    @Test
    void aMarkWithoutARowIsNamed() {
        Sale s = new Sale();
        s.buyers.put(7L, 107L);
        List<Disagreement> d = s.stats().disagreements();
        assertEquals(List.of(new Disagreement(Kind.MARK_WITHOUT_ROW, 7L, 107L, "buyer mark without a row")), d);
        assertFalse(s.stats().consistent());
        s.remaining = 5L;
        assertEquals(List.of(Kind.REDIS_STOCK, Kind.MARK_WITHOUT_ROW), s.kinds(),
                "a reservation that never became a row also holds a unit no live row accounts for");
    }

    @Test
    void aRowWithoutAMarkIsNamed() {
        Sale s = new Sale();
        s.buyers.remove(2L);
        s.remaining = 7L;
        assertEquals(List.of(Kind.REDIS_STOCK, Kind.ROW_WITHOUT_MARK), s.kinds());
        Disagreement d = s.stats().disagreements().get(1);
        assertEquals(2L, d.userId());
        assertEquals(102L, d.orderId());
    }

    @Test
    void aMarkNamingAnotherOrderIsNamedWithTheRowsOrder() {
        Sale s = new Sale();
        s.buyers.put(3L, 999L);
        List<Disagreement> d = s.stats().disagreements();
        assertEquals(List.of(new Disagreement(Kind.MARK_NAMES_OTHER_ORDER, 3L, 103L,
                "the buyer mark names order 999")), d);
    }

    /** Every count agrees (6 marks, 6 rows, stock equations hold); only the sets tell. */
    @Test
    void equalCountsOfDifferentUsersAreInconsistent() {
        Sale s = new Sale();
        s.buyers.remove(1L);
        s.buyers.put(8L, 101L);
        SaleStats stats = s.stats();
        assertEquals(stats.redisBuyers(), stats.orders().total(), "the counts agree");
        assertEquals(List.of(Kind.ROW_WITHOUT_MARK, Kind.MARK_WITHOUT_ROW), s.kinds());
        assertFalse(stats.consistent());
    }

    @Test
    void anExpiredOrderKeepsItsMarkAndMustBeInTheReturnedSet() {
        Sale s = new Sale();
        s.returned.remove(106L);
        s.remaining = 5L;
        assertEquals(List.of(Kind.REDIS_STOCK, Kind.EXPIRED_NOT_RETURNED), s.kinds());

        Sale lapsedMarkGone = new Sale();
        lapsedMarkGone.buyers.remove(5L);
        assertEquals(List.of(Kind.ROW_WITHOUT_MARK), lapsedMarkGone.kinds(), "a lapsed buyer keeps the mark");
    }

    /** Two returned, two expired, but not the same two: a live order's unit counted back, an expired one not. */
    @Test
    void aReturnedSetOfTheRightSizeNamingALiveOrderIsInconsistent() {
        Sale s = new Sale();
        s.returned.remove(106L);
        s.returned.add(101L);
        assertEquals(List.of(Kind.EXPIRED_NOT_RETURNED, Kind.RETURNED_NOT_EXPIRED), s.kinds());
        assertEquals(101L, s.stats().disagreements().get(1).orderId());
    }

    @Test
    void theStockEquationsStillHold() {
        Sale unitLost = new Sale();
        unitLost.remaining = 5L;
        assertEquals(List.of(Kind.REDIS_STOCK), unitLost.kinds(), "a unit neither in Redis nor written");
        Sale dbOff = new Sale();
        dbOff.dbStock = 8;
        assertEquals(List.of(Kind.DB_STOCK), dbOff.kinds());
        Sale missing = new Sale();
        missing.remaining = null;
        assertEquals(List.of(Kind.REDIS_STOCK_MISSING), missing.kinds());
    }

    @Test
    void nothingIsConsistentWhileTheWriterIsBehindOrRedisIsOwedUnits() {
        Sale behind = new Sale();
        behind.lag = 1;
        behind.buyers.put(7L, 107L);
        behind.remaining = 5L;
        assertEquals(List.of(Kind.WRITER_BEHIND, Kind.REDIS_STOCK, Kind.MARK_WITHOUT_ROW), behind.kinds(),
                "what an event not yet written leaves is listed, after the reason");
        Sale owed = new Sale();
        owed.owed = 1;
        assertEquals(List.of(Kind.UNITS_OWED), owed.kinds());
    }

    @Test
    void anArchivedSaleIsJudgedByTheDatabaseAlone() {
        Sale s = new Sale();
        s.archived = true;
        s.remaining = null;
        s.buyers.clear();
        s.returned.clear();
        assertTrue(s.stats().consistent(), s.kinds().toString());
        s.dbStock = 7;
        assertEquals(List.of(Kind.DB_STOCK), s.kinds());
    }

    /** The answer that names disagreements is one the API document describes, listed up to its bound. */
    @Test
    void theStatsAnswerNamesWhatDisagreesWithinTheContract() throws Exception {
        Sale s = new Sale();
        for (long u = 10; u < 40; u++) {
            s.buyers.put(u, 100 + u);
        }
        s.buyers.put(3L, 999L);
        Map<String, Object> body = AdminService.json(s.stats());
        assertEquals(false, body.get("consistent"));
        assertEquals(31, body.get("disagreementCount"));
        assertEquals(20, ((List<?>) body.get("disagreements")).size());
        Map<String, String> headers = Map.of("content-type", "application/json");
        dev.seckill.testkit.ApiContract.check("GET", "/admin/sales/1/stats", 200,
                h -> headers.get(h.toLowerCase(java.util.Locale.ROOT)),
                new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(body));
        Map<String, Object> sound = AdminService.json(new Sale().stats());
        assertEquals(true, sound.get("consistent"));
        assertEquals(List.of(), sound.get("disagreements"));
    }
}
