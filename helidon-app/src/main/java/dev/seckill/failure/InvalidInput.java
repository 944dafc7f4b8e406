package dev.seckill.failure;

/**
 * Input that breaks a rule of the domain, naming the field at fault. The message is written by us for the client
 * (it never carries a parser's or a driver's text), so it may be shown as is.
 */
public final class InvalidInput extends RuntimeException {

    private final String field;

    public InvalidInput(String field, String message) {
        super(message);
        this.field = field;
    }

    /** @param cause what the parser said, for the log only */
    public InvalidInput(String field, String message, Throwable cause) {
        super(message, cause);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
