package dev.seckill.http;

/** A dependency (Redis, Kafka, the database) failed: answered 503 {@code UNAVAILABLE} with Retry-After. */
public final class Unavailable extends RuntimeException {

    public Unavailable(String message, Throwable cause) {
        super(message, cause);
    }

    public Unavailable(String message) {
        super(message);
    }
}
