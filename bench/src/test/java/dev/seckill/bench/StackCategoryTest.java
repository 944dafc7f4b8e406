package dev.seckill.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StackCategoryTest {

    @Test
    void theLeafMostFrameOutsideTheJdkNamesThePart() {
        assertEquals(StackCategory.REDISSON, StackCategory.of(List.of("java.util.HashMap",
                "org.redisson.command.CommandAsyncService", "dev.seckill.redis.Reserver", "io.helidon.webserver.X")));
        assertEquals(StackCategory.IDENTITY, StackCategory.of(List.of("com.sun.crypto.provider.HmacCore",
                "javax.crypto.Mac", "dev.seckill.identity.Tokens", "io.helidon.webserver.X")));
        assertEquals(StackCategory.JSON, StackCategory.of(List.of("com.fasterxml.jackson.core.JsonGenerator",
                "io.helidon.http.media.jackson.JacksonSupport")));
        assertEquals(StackCategory.HELIDON, StackCategory.of(List.of("io.helidon.http.HeaderValues")));
        assertEquals(StackCategory.KAFKA, StackCategory.of(List.of("org.apache.kafka.clients.producer.KafkaProducer")));
        assertEquals("seckill purchase", StackCategory.of(List.of("java.lang.String",
                "dev.seckill.purchase.PurchaseHandler")));
    }

    @Test
    void aStackOfJdkFramesOnlyIsTheSchedulerTheSocketsOrTheJdk() {
        assertEquals(StackCategory.SCHEDULER, StackCategory.of(List.of("jdk.internal.misc.Unsafe",
                "java.util.concurrent.ForkJoinPool")));
        assertEquals("JDK sockets (NIO)", StackCategory.of(List.of("sun.nio.ch.SocketDispatcher", "java.lang.Thread")));
        assertEquals("JDK (other)", StackCategory.of(List.of("java.lang.Thread")));
        assertEquals(StackCategory.PROFILER, StackCategory.of(List.of("java.lang.String",
                "jdk.internal.vm.ThreadDumper$JsonWriter", "io.helidon.webserver.X")), "the bench's dumps are its own cost");
        assertEquals(2, StackCategory.firstOwnFrame(List.of("jdk.internal.misc.Unsafe",
                "java.util.concurrent.locks.LockSupport", "org.redisson.RedissonObject")));
    }
}
