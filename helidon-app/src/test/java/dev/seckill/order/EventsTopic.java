package dev.seckill.order;

import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.EventContract;
import dev.seckill.testkit.Stack;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A shop's consumer of {@code seckill.order-events}, as docs/shop.md says to consume it: every partition from where
 * the topic ended when this was made, each record checked against the AsyncAPI document ({@link EventContract}) and
 * its key against its order, duplicates dropped by event id. What is left, per order, is the order of first arrival.
 */
final class EventsTopic implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    /** Per order, its events as first received (a duplicate by event id is counted, not kept). */
    private final Map<String, List<OrderStateEvent>> byOrder = new HashMap<>();
    private final Set<String> seenIds = new HashSet<>();
    private int duplicates;

    EventsTopic() {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.get().kafkaBootstrap(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        List<TopicPartition> parts = new ArrayList<>();
        for (PartitionInfo p : consumer.partitionsFor(OrderStateEvent.TOPIC)) {
            parts.add(new TopicPartition(p.topic(), p.partition()));
        }
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        // Resolve the end now, so that events published from here on are all read.
        parts.forEach(consumer::position);
    }

    /** Reads until each order's events are {@code expected} (in that order), then asserts nothing else came. */
    void awaitEvents(Map<String, List<OrderStateEvent.Type>> expected, Duration timeout) {
        Await.until(timeout, () -> {
            poll();
            return expected.entrySet().stream().allMatch(e -> types(e.getKey()).size() >= e.getValue().size());
        }, "the order events " + expected + " (so far: " + summary(expected.keySet()) + ")");
        for (Map.Entry<String, List<OrderStateEvent.Type>> e : expected.entrySet()) {
            assertEquals(e.getValue(), types(e.getKey()), "order " + e.getKey() + "'s events, in order");
        }
    }

    /** The events of an order as first received. */
    List<OrderStateEvent> of(String orderId) {
        return byOrder.getOrDefault(orderId, List.of());
    }

    /** Records that repeated an event already received (at least once allows them). */
    int duplicates() {
        return duplicates;
    }

    private List<OrderStateEvent.Type> types(String orderId) {
        return of(orderId).stream().map(OrderStateEvent::type).toList();
    }

    private Map<String, List<OrderStateEvent.Type>> summary(Collection<String> orders) {
        Map<String, List<OrderStateEvent.Type>> out = new LinkedHashMap<>();
        orders.forEach(o -> out.put(o, types(o)));
        return out;
    }

    private void poll() {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            EventContract.check(r.topic(), r.key(), r.value());
            OrderStateEvent e = OrderStateEvent.fromJson(r.value());
            assertEquals(e.orderId(), new String(r.key(), StandardCharsets.UTF_8), "keyed by its order");
            assertEquals(e.orderId() + ":" + e.type(), e.eventId(), "the event id names the change");
            if (seenIds.add(e.eventId())) {
                byOrder.computeIfAbsent(e.orderId(), o -> new ArrayList<>()).add(e);
            } else {
                duplicates++;
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
