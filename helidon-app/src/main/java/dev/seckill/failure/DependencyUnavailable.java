package dev.seckill.failure;

/**
 * A dependency (Redis, Kafka, the database) failed or is not ready. The purchase path fails closed on it: the
 * client is told to retry, and any unit taken has been given back. The message is for the log, never for clients.
 * Open to subclasses that name a particular failure the purchase path must react to (a reservation its replicas did
 * not confirm) while every other caller still sees a 503.
 */
public class DependencyUnavailable extends RuntimeException {

    public DependencyUnavailable(String message, Throwable cause) {
        super(message, cause);
    }

    public DependencyUnavailable(String message) {
        super(message);
    }
}
