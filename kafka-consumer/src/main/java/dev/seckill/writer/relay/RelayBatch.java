package dev.seckill.writer.relay;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which pending events one batch publishes: the oldest event of each order, in outbox order. An order's later event
 * waits for the next batch, which starts only after Kafka acknowledged this one, so it can never reach the topic
 * ahead of the earlier one, even when a send of this batch fails and another relay takes over.
 */
public final class RelayBatch {

    private RelayBatch() {
    }

    public static List<PendingEvent> next(List<PendingEvent> pending) {
        Set<String> orders = new HashSet<>();
        List<PendingEvent> out = new ArrayList<>(pending.size());
        for (PendingEvent p : pending) {
            if (orders.add(p.event().orderId())) {
                out.add(p);
            }
        }
        return out;
    }
}
