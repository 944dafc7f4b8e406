package dev.seckill.writer;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.it.OrdersTopic;
import dev.seckill.writer.it.PacedSender;
import dev.seckill.writer.it.Sales;
import dev.seckill.writer.it.WriterEndpoint;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Crashes and outages under a stream of orders: the DB stopped and started again, the writer killed
 * with SIGKILL or stopped with SIGTERM and started again. Each time every order ends up as exactly one row. Each test leaves the stack
 * running whatever happens.
 */
class WriterFaultIT {

    private static final Duration SCRIPT = Duration.ofMinutes(3);
    private static final Duration WRITTEN = Duration.ofMinutes(4);

    private static OrdersTopic topic;
    private final Stack stack = Stack.get();
    private final WriterEndpoint writer = new WriterEndpoint();

    @BeforeAll
    static void connect() {
        topic = new OrdersTopic();
    }

    @AfterAll
    static void close() {
        topic.close();
    }

    @Test
    void databaseStoppedWhileOrdersKeepArrivingThenEveryOrderIsWrittenOnceWhenItReturns() {
        long sale = Sales.create(2000);
        List<OrderEvent> events = Sales.orders(sale, 2000);
        topic.awaitCommitted(topic.send(events.subList(0, 400)), WRITTEN);
        double retriesBefore = writer.metric("seckill_writer_batch_retries_total");

        Map<TopicPartition, Long> next;
        stack.seckill(SCRIPT, "down", "db");
        try (PacedSender sender = new PacedSender(topic, events.subList(400, 2000), 100, Duration.ofMillis(400))) {
            Await.until(Duration.ofSeconds(60), () -> "DOWN".equals(writer.health()), "writer health DOWN without DB");
            Await.until(Duration.ofSeconds(60),
                    () -> writer.metric("seckill_writer_batch_retries_total") - retriesBefore >= 2,
                    "the writer to retry failed batches");
            next = sender.finish(Duration.ofSeconds(90));
        } finally {
            stack.seckill(SCRIPT, "up", "db");
        }

        topic.awaitCommitted(next, WRITTEN);
        Sales.assertWrittenOnce(sale, events);
        Await.until(Duration.ofSeconds(60), () -> "UP".equals(writer.health()), "writer health UP again");
    }

    @Test
    void writerKilledWithSigkillMidStreamThenEveryOrderIsWrittenOnceAfterRestart() {
        long sale = Sales.create(3000);
        List<OrderEvent> events = Sales.orders(sale, 3000);

        Map<TopicPartition, Long> next;
        boolean killed = false;
        try (PacedSender sender = new PacedSender(topic, events, 100, Duration.ofMillis(150))) {
            Await.until(Duration.ofSeconds(60), () -> Sales.rows(sale) >= 300, "the writer to be writing");
            stack.kill9("writer");
            killed = true;
            next = sender.finish(Duration.ofSeconds(90));
        } finally {
            if (killed) {
                stack.seckill(SCRIPT, "up", "writer");
            }
        }

        topic.awaitCommitted(next, WRITTEN);
        Sales.assertWrittenOnce(sale, events);
    }

    @Test
    void writerStoppedWithSigtermMidStreamStopsPromptlyAndEveryOrderIsWrittenOnce() {
        long sale = Sales.create(3000);
        List<OrderEvent> events = Sales.orders(sale, 3000);

        Map<TopicPartition, Long> next;
        try (PacedSender sender = new PacedSender(topic, events, 100, Duration.ofMillis(150))) {
            Await.until(Duration.ofSeconds(60), () -> Sales.rows(sale) >= 300, "the writer to be writing");
            // restart = SIGTERM, wait (bin/seckill SIGKILLs after 20 s and says so), start again.
            String out = stack.seckill(SCRIPT, "restart", "writer");
            assertFalse(out.contains("did not stop"), "the writer stopped on SIGTERM by itself: " + out);
            next = sender.finish(Duration.ofSeconds(90));
        }

        topic.awaitCommitted(next, WRITTEN);
        Sales.assertWrittenOnce(sale, events);
    }
}
