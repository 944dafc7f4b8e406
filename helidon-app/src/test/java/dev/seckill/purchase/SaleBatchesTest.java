package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coalescer with a fake script call that records its batches and can be held in flight: one attempt alone goes
 * at once; attempts arriving while a call is in flight go together, in arrival order, up to the maximum, in the next
 * call; a failed call fails every attempt of its batch, and no other.
 */
class SaleBatchesTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final List<List<Integer>> calls = new CopyOnWriteArrayList<>();
    /** Calls that block until released, by the first attempt of their batch. */
    private final ConcurrentHashMap<Integer, CountDownLatch> holds = new ConcurrentHashMap<>();
    private final CountDownLatch firstCallEntered = new CountDownLatch(1);

    @AfterEach
    void stop() throws InterruptedException {
        holds.values().forEach(CountDownLatch::countDown);
        threads.shutdown();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** The fake script: decision = attempt * 10, after the call's hold (if any) is released. */
    private List<Integer> call(List<Integer> batch) {
        calls.add(List.copyOf(batch));
        firstCallEntered.countDown();
        CountDownLatch hold = holds.get(batch.getFirst());
        if (hold != null) {
            try {
                hold.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        return batch.stream().map(a -> a * 10).toList();
    }

    private SaleBatches<Integer, Integer> batches(int max, Function<List<Integer>, List<Integer>> decider) {
        return new SaleBatches<>(max, decider, size -> { });
    }

    private CompletableFuture<Integer> submit(SaleBatches<Integer, Integer> b, long sale, int attempt) {
        return CompletableFuture.supplyAsync(() -> b.decide(sale, attempt), threads);
    }

    /** Holds the call that attempt 1 leads, submits it, and waits until it is in flight. */
    private CompletableFuture<Integer> inFlight(SaleBatches<Integer, Integer> b, CountDownLatch hold) {
        holds.put(1, hold);
        CompletableFuture<Integer> first = submit(b, 7, 1);
        Await.until(WAIT, () -> firstCallEntered.getCount() == 0, "the first call is in flight");
        return first;
    }

    /** Submits attempts one after the other, each once the previous one is queued: a known arrival order. */
    private List<CompletableFuture<Integer>> queue(SaleBatches<Integer, Integer> b, int from, int to) {
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (int a = from; a <= to; a++) {
            answers.add(submit(b, 7, a));
            int queued = a - from + 1;
            Await.until(WAIT, () -> b.waiting(7) == queued, queued + " attempts queued");
        }
        return answers;
    }

    @Test
    void anAttemptWithNothingInFlightGoesAtOnceAlone() {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        SaleBatches<Integer, Integer> b = new SaleBatches<>(64, this::call, sizes::add);
        assertEquals(10, b.decide(7, 1));
        assertEquals(20, b.decide(7, 2));
        assertEquals(List.of(List.of(1), List.of(2)), calls, "one call each, on the caller's own thread");
        assertEquals(List.of(1, 1), sizes);
    }

    @Test
    void attemptsArrivingWhileACallIsInFlightGoTogetherInArrivalOrderAndEachGetsItsOwnDecision() {
        SaleBatches<Integer, Integer> b = batches(64, this::call);
        CountDownLatch hold = new CountDownLatch(1);
        CompletableFuture<Integer> first = inFlight(b, hold);
        List<CompletableFuture<Integer>> queued = queue(b, 2, 6);
        hold.countDown();
        assertEquals(10, first.join());
        for (int i = 0; i < queued.size(); i++) {
            assertEquals((i + 2) * 10, queued.get(i).join());
        }
        assertEquals(List.of(List.of(1), List.of(2, 3, 4, 5, 6)), calls);
    }

    @Test
    void aBatchTakesAtMostTheMaximumAndTheRestGoInTheCallAfter() {
        SaleBatches<Integer, Integer> b = batches(2, this::call);
        CountDownLatch hold = new CountDownLatch(1);
        CompletableFuture<Integer> first = inFlight(b, hold);
        List<CompletableFuture<Integer>> queued = queue(b, 2, 6);
        hold.countDown();
        first.join();
        queued.forEach(CompletableFuture::join);
        assertEquals(List.of(List.of(1), List.of(2, 3), List.of(4, 5), List.of(6)), calls);
    }

    @Test
    void aFailedCallFailsEveryAttemptOfItsBatchAndNoOther() {
        DependencyUnavailable down = new DependencyUnavailable("failed to run purchase.lua", null);
        SaleBatches<Integer, Integer> b = batches(64, batch -> {
            List<Integer> decided = call(batch);
            if (batch.contains(3)) {
                throw down;
            }
            return decided;
        });
        CountDownLatch hold = new CountDownLatch(1);
        CompletableFuture<Integer> first = inFlight(b, hold);
        List<CompletableFuture<Integer>> queued = queue(b, 2, 4);
        hold.countDown();
        assertEquals(10, first.join());
        for (CompletableFuture<Integer> q : queued) {
            Throwable thrown = assertThrows(Exception.class, q::join).getCause();
            assertSame(down, thrown, "the call's own failure, for each attempt of the batch");
        }
        assertEquals(50, b.decide(7, 5), "the next call goes on");
    }

    @Test
    void salesDoNotWaitForEachOther() {
        SaleBatches<Integer, Integer> b = batches(64, this::call);
        CountDownLatch hold = new CountDownLatch(1);
        CompletableFuture<Integer> first = inFlight(b, hold);
        assertEquals(80, b.decide(8, 8), "another sale's call goes while sale 7's is in flight");
        hold.countDown();
        assertEquals(10, first.join());
    }

    @Test
    void maximumOneIsOneCallPerAttemptSideBySide() {
        SaleBatches<Integer, Integer> b = batches(1, this::call);
        CountDownLatch hold = new CountDownLatch(1);
        CompletableFuture<Integer> first = inFlight(b, hold);
        assertEquals(20, b.decide(7, 2), "no queue: a second call of the same sale runs beside the held one");
        assertEquals(0, b.waiting(7));
        hold.countDown();
        assertEquals(10, first.join());
        assertEquals(List.of(List.of(1), List.of(2)), calls);
    }

    @Test
    void manyConcurrentAttemptsAreEachDecidedExactlyOnce() {
        SaleBatches<Integer, Integer> b = batches(8, this::call);
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (int a = 1; a <= 2_000; a++) {
            answers.add(submit(b, a % 3, a));
        }
        for (int a = 1; a <= 2_000; a++) {
            assertEquals(a * 10, answers.get(a - 1).join());
        }
        List<Integer> decided = calls.stream().flatMap(List::stream).sorted().toList();
        assertEquals(2_000, decided.size(), "no attempt decided twice or lost");
        assertTrue(calls.stream().allMatch(c -> c.size() <= 8));
        assertEquals(0, b.waiting(0) + b.waiting(1) + b.waiting(2));
    }

    @Test
    void aMaximumBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> batches(0, this::call));
    }
}
