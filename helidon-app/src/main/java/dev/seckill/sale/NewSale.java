package dev.seckill.sale;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.failure.InvalidInput;
import dev.seckill.line.WaitingRoom;
import dev.seckill.protection.SaleProtection;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A validated request to create a sale: {@code {"name","priceCents","stock","startsAt","endsAt"}}, optionally
 * {@code "payWindowSeconds"} (default {@link Sale#DEFAULT_PAY_WINDOW_SECONDS}), {@code "protection"} and
 * {@code "challengeBits"} (see {@link SaleProtection}) and {@code "waitingRoom"} (see {@link WaitingRoom}).
 */
public record NewSale(String name, long priceCents, int stock, Instant startsAt, Instant endsAt, int payWindowSeconds,
                      SaleProtection protection, WaitingRoom waitingRoom) {

    /** An unprotected sale without a line. */
    public NewSale(String name, long priceCents, int stock, Instant startsAt, Instant endsAt, int payWindowSeconds) {
        this(name, priceCents, stock, startsAt, endsAt, payWindowSeconds, SaleProtection.NONE, null);
    }

    public static final int MAX_STOCK = 10_000_000;
    /** A week: any window from one second up (tests and demos use short ones), within what a shop would hold a unit. */
    public static final int MAX_PAY_WINDOW_SECONDS = 7 * 24 * 3600;

    /** Validates a JSON body; every problem is a 400 naming the field. */
    public static NewSale from(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidInput("body", "body must be a JSON object");
        }
        JsonNode name = body.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank() || name.asText().length() > 200) {
            throw new InvalidInput("name", "name must be a string of 1 to 200 characters");
        }
        long price = integer(body, "priceCents", 0, Long.MAX_VALUE / 2);
        int stock = (int) integer(body, "stock", 1, MAX_STOCK);
        Instant starts = instant(body, "startsAt");
        Instant ends = instant(body, "endsAt");
        if (!ends.isAfter(starts)) {
            throw new InvalidInput("endsAt", "endsAt must be after startsAt");
        }
        int window = body.has("payWindowSeconds")
                ? (int) integer(body, "payWindowSeconds", 1, MAX_PAY_WINDOW_SECONDS) : Sale.DEFAULT_PAY_WINDOW_SECONDS;
        SaleProtection protection = SaleProtection.from(body);
        return new NewSale(name.asText().strip(), price, stock, starts, ends, window, protection,
                WaitingRoom.from(body));
    }

    private static long integer(JsonNode body, String field, long min, long max) {
        JsonNode n = body.get(field);
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < min || n.asLong() > max) {
            throw new InvalidInput(field, field + " must be an integer from " + min + " to " + max);
        }
        return n.asLong();
    }

    private static Instant instant(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || !n.isTextual()) {
            throw new InvalidInput(field, field + " must be an ISO-8601 instant, e.g. 2030-01-01T10:00:00Z");
        }
        try {
            return Instant.parse(n.asText());
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be an ISO-8601 instant, e.g. 2030-01-01T10:00:00Z");
        }
    }
}
