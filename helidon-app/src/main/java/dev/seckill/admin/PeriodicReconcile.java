package dev.seckill.admin;

import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * Reconciles every current sale on a fixed interval (off unless {@code seckill.reconcile.interval-seconds} > 0),
 * on one virtual thread. A round that finds the writer behind does nothing; the next one tries again.
 */
public final class PeriodicReconcile implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicReconcile.class);

    private final Thread thread;

    private PeriodicReconcile(Thread thread) {
        this.thread = thread;
    }

    public static PeriodicReconcile start(Reconciler reconciler, SaleRepository sales, Clock clock, Duration every,
                                          Duration grace) {
        Thread t = Thread.ofVirtual().name("seckill-reconcile").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(every);
                    for (Sale s : sales.recent(clock.instant())) {
                        Reconciler.Report r = reconciler.reconcile(s, false, grace);
                        if (!r.actions().isEmpty()) {
                            LOG.warn("reconciled sale " + s.id() + ": " + r.actions());
                        }
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("failed to reconcile: " + e.getMessage());
                }
            }
        });
        return new PeriodicReconcile(t);
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
