package dev.seckill.expiry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Runs {@link Expiry} passes on one virtual thread, one pass per interval. Every instance runs its own: the
 * database hands each lapsed order to one of them. A failing pass is logged when the failures start and when they
 * end (not once a second during an outage), counted, and retried at the next interval.
 */
public final class ExpiryRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExpiryRunner.class);

    private final Thread thread;

    private ExpiryRunner(Thread thread) {
        this.thread = thread;
    }

    public static ExpiryRunner start(Expiry expiry, ExpiryMetrics metrics, Duration every) {
        Thread t = Thread.ofVirtual().name("seckill-expiry").start(() -> {
            boolean failing = false;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(every);
                    Expiry.Pass pass = metrics.pass().record(expiry::run);
                    if (failing) {
                        LOG.info("expiry resumed");
                        failing = false;
                    }
                    if (pass.expired() > 0) {
                        LOG.atDebug().log(() -> "expired " + pass.expired() + " orders: " + pass.releases());
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    metrics.failed();
                    if (!failing) {
                        LOG.warn("failed to expire lapsed orders (retrying every "
                                + every.toMillis() + " ms): " + e.getMessage(), e);
                        failing = true;
                    }
                }
            }
        });
        return new ExpiryRunner(t);
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
