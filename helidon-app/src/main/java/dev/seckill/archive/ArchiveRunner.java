package dev.seckill.archive;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

/** Runs an archiving pass every interval on one virtual thread; a failed pass is logged and the next one retries. */
public final class ArchiveRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveRunner.class);

    private final Thread thread;

    private ArchiveRunner(Thread thread) {
        this.thread = thread;
    }

    public static ArchiveRunner start(Archiver archiver, Duration every) {
        return new ArchiveRunner(Thread.ofVirtual().name("seckill-archive").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(every);
                    List<Long> archived = archiver.run();
                    if (!archived.isEmpty()) {
                        LOG.debug("archived sales " + archived);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("failed to archive settled sales: " + e.getMessage());
                }
            }
        }));
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
