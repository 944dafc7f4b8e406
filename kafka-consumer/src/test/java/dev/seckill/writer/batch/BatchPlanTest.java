package dev.seckill.writer.batch;

import dev.seckill.event.OrderEvent;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchPlanTest {

    private static OrderEvent order(long orderId, long saleId, long userId) {
        return OrderEvent.of(orderId, saleId, userId, 100, 1_700_000_000_000L);
    }

    @Test
    void newOrdersAreGroupedBySaleInBatchOrder() {
        List<OrderEvent> batch = List.of(order(1, 10, 1), order(2, 20, 1), order(3, 10, 2));
        BatchPlan plan = BatchPlan.of(batch, Set.of(10L, 20L), List.of());
        assertEquals(Map.of(10L, List.of(0, 2), 20L, List.of(1)), plan.freshBySale());
        assertEquals(0, plan.duplicates());
        assertTrue(plan.rejections().isEmpty());
    }

    @Test
    void orderAlreadyInTheDatabaseIsADuplicate() {
        List<OrderEvent> batch = List.of(order(1, 10, 1), order(2, 10, 2));
        BatchPlan plan = BatchPlan.of(batch, Set.of(10L), List.of(new StoredOrder(1, 10, 1)));
        assertEquals(Map.of(10L, List.of(1)), plan.freshBySale());
        assertEquals(1, plan.duplicates());
        assertTrue(plan.rejections().isEmpty());
    }

    @Test
    void sameOrderTwiceInOneBatchIsNewOnceAndThenADuplicate() {
        List<OrderEvent> batch = List.of(order(1, 10, 1), order(1, 10, 1));
        BatchPlan plan = BatchPlan.of(batch, Set.of(10L), List.of());
        assertEquals(Map.of(10L, List.of(0)), plan.freshBySale());
        assertEquals(1, plan.duplicates());
    }

    @Test
    void orderOfAnUnknownSaleIsRejected() {
        BatchPlan plan = BatchPlan.of(List.of(order(1, 10, 1), order(2, 99, 1)), Set.of(10L), List.of());
        assertEquals(Map.of(10L, List.of(0)), plan.freshBySale());
        assertEquals(List.of(new Rejection(1, RejectReason.UNKNOWN_SALE, "sale 99 does not exist")), plan.rejections());
    }

    @Test
    void secondOrderOfAUserInASaleIsAConflict() {
        List<OrderEvent> batch = List.of(order(5, 10, 1), order(6, 10, 1));
        BatchPlan plan = BatchPlan.of(batch, Set.of(10L), List.of(new StoredOrder(4, 10, 1)));
        assertTrue(plan.freshBySale().isEmpty());
        assertEquals(2, plan.rejections().size());
        assertEquals(RejectReason.ORDER_CONFLICT, plan.rejections().getFirst().reason());
        assertEquals("user 1 already has order 4 in sale 10", plan.rejections().getFirst().detail());
    }

    @Test
    void secondOrderOfAUserWithinOneBatchIsAConflict() {
        BatchPlan plan = BatchPlan.of(List.of(order(5, 10, 1), order(6, 10, 1)), Set.of(10L), List.of());
        assertEquals(Map.of(10L, List.of(0)), plan.freshBySale());
        assertEquals(1, plan.rejections().getFirst().index());
        assertEquals(RejectReason.ORDER_CONFLICT, plan.rejections().getFirst().reason());
    }

    @Test
    void orderIdOwnedByAnotherOrderIsAConflict() {
        BatchPlan plan = BatchPlan.of(List.of(order(7, 10, 2)), Set.of(10L), List.of(new StoredOrder(7, 10, 1)));
        assertTrue(plan.freshBySale().isEmpty());
        assertEquals(0, plan.duplicates());
        assertEquals("order id 7 already belongs to sale 10 user 1", plan.rejections().getFirst().detail());
    }

    @Test
    void sameUserMayBuyInDifferentSales() {
        BatchPlan plan = BatchPlan.of(List.of(order(1, 10, 1), order(2, 20, 1)), Set.of(10L, 20L), List.of());
        assertEquals(2, plan.freshBySale().size());
        assertTrue(plan.rejections().isEmpty());
    }
}
