package dev.seckill.writer.deadletter;

/** The dead-letter topic did not acknowledge every letter: the batch must not be committed yet. */
public final class DeadLetterException extends RuntimeException {

    public DeadLetterException(String message, Throwable cause) {
        super(message, cause);
    }
}
