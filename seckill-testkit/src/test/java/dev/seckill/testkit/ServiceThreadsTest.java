package dev.seckill.testkit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServiceThreadsTest {

    private static final String DUMP = """
            2026-12-06T13:20:56.669854238Z
            25.0.3+9-LTS

            #12 "Reference Handler" RUNNABLE 2026-12-06T13:20:56.676287492Z
                at java.base/java.lang.ref.Reference.waitForReferencePendingList(Native Method)

            #40 "" virtual WAITING 2026-12-06T13:20:56.7Z
                at java.base/java.util.concurrent.CompletableFuture.join(CompletableFuture.java:2117)
                at dev.seckill.purchase.SaleBatches.decide(SaleBatches.java:58)
                at dev.seckill.purchase.RedisStockReserver.reserve(RedisStockReserver.java:55)

            #41 "" virtual WAITING 2026-12-06T13:20:56.7Z
                at java.base/java.util.concurrent.CompletableFuture.join(CompletableFuture.java:2117)
                at dev.seckill.purchase.SaleBatches.decide(SaleBatches.java:58)

            #42 "" virtual TIMED_WAITING 2026-12-06T13:20:56.7Z
                at java.base/java.lang.Thread.sleep(Thread.java:500)
                at dev.seckill.purchase.ReplicaConfirmation.standing(ReplicaConfirmation.java:109)
            """;

    @Test
    void countsTheThreadsByTheirInnermostFrameOfTheProject() {
        assertEquals("4 threads, the most in the project's code: "
                        + "2 in dev.seckill.purchase.SaleBatches.decide(SaleBatches.java:58), "
                        + "1 in dev.seckill.purchase.ReplicaConfirmation.standing(ReplicaConfirmation.java:109)",
                ServiceThreads.frames(DUMP));
    }
}
