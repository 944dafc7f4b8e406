package dev.seckill.writer.relay;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.seckill.event.OrderStateEvent.Type.CONFIRMED;
import static dev.seckill.event.OrderStateEvent.Type.EXPIRED;
import static dev.seckill.event.OrderStateEvent.Type.PAID;
import static dev.seckill.event.OrderStateEvent.Type.UNIT_RETURNED;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RelayBatchTest {

    private final FakeOutbox outbox = new FakeOutbox();

    @Test
    void aBatchTakesTheOldestEventOfEachOrderInOutboxOrder() {
        PendingEvent a1 = outbox.add(CONFIRMED, 1);
        PendingEvent b1 = outbox.add(CONFIRMED, 2);
        outbox.add(PAID, 1);
        PendingEvent c1 = outbox.add(CONFIRMED, 3);
        outbox.add(EXPIRED, 2);
        outbox.add(UNIT_RETURNED, 2);

        assertEquals(List.of(a1, b1, c1), RelayBatch.next(outbox.rows));
    }

    @Test
    void eventsOfDistinctOrdersAllGoInOneBatch() {
        outbox.add(CONFIRMED, 1);
        outbox.add(PAID, 2);
        outbox.add(UNIT_RETURNED, 3);
        assertEquals(outbox.rows, RelayBatch.next(outbox.rows));
        assertEquals(List.of(), RelayBatch.next(List.of()));
    }
}
