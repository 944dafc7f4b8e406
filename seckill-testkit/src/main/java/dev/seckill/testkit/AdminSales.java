package dev.seckill.testkit;

import java.time.Instant;

/** Sales made through a stack's admin API, as an operator makes them (price 19.99, a unique name). */
public final class AdminSales {

    private final Stack stack;
    private final HttpJson http;

    public AdminSales(Stack stack, HttpJson http) {
        this.stack = stack;
        this.http = http;
    }

    /** Creates a sale named {@code prefix} plus a unique suffix and returns its id; anything but 201 fails the test. */
    public long create(String prefix, int stock, Instant startsAt, Instant endsAt) {
        return create(prefix, stock, startsAt, endsAt, "");
    }

    /** As {@link #create(String, int, Instant, Instant)}, with {@code more} fields of the body (",\"f\":v..."). */
    public long create(String prefix, int stock, Instant startsAt, Instant endsAt, String more) {
        HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales", "{\"name\":\"" + prefix + System.nanoTime()
                        + "\",\"priceCents\":1999,\"stock\":" + stock + ",\"startsAt\":\"" + startsAt
                        + "\",\"endsAt\":\"" + endsAt + "\"" + more + "}",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        if (r.status() != 201) {
            throw new AssertionError("failed to create a sale: " + r.status() + " " + r.body());
        }
        return r.json().path("id").asLong();
    }

    /** A sale that started a second ago and lasts an hour. */
    public long active(String prefix, int stock) {
        Instant now = Instant.now();
        return create(prefix, stock, now.minusSeconds(1), now.plusSeconds(3600));
    }
}
