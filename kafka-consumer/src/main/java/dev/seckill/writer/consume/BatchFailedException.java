package dev.seckill.writer.consume;

/**
 * A batch could not be completed (DB or dead-letter topic unavailable): nothing of it may be committed to Kafka,
 * and the same records are retried after a backoff.
 */
public final class BatchFailedException extends RuntimeException {

    public BatchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
