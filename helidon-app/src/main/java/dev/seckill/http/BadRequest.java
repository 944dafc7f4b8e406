package dev.seckill.http;

/** Malformed input: answered 400 {@code BAD_REQUEST} with a message naming the field. */
public final class BadRequest extends RuntimeException {

    private final String field;

    public BadRequest(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
