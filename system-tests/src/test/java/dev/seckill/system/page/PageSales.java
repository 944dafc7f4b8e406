package dev.seckill.system.page;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** PageSales made for a page test through the admin API (the service's internal listener; the edge does not expose it). */
final class PageSales {

    private PageSales() {
    }

    /** Creates a sale with the default payment window and returns its id. */
    static long create(String name, long priceCents, int stock, Instant startsAt, Instant endsAt) {
        return create(name, priceCents, stock, startsAt, endsAt, 900);
    }

    /** Creates a sale whose winners have {@code payWindowSeconds} to pay, and returns its id. */
    static long create(String name, long priceCents, int stock, Instant startsAt, Instant endsAt, int payWindowSeconds) {
        return create(name, priceCents, stock, startsAt, endsAt, payWindowSeconds, "");
    }

    /**
     * Creates a sale with a waiting room (docs/waiting-room.md) whose line opens {@code prequeueSeconds} before the
     * start and admits each buyer for {@code admitSeconds}, with the default payment window; {@code extra}: more
     * fields of the create body, each with its leading comma (e.g. {@code ,"protection":"challenge"}), or "".
     */
    static long createWithLine(String name, long priceCents, int stock, Instant startsAt, Instant endsAt,
                               int prequeueSeconds, int admitSeconds, String extra) {
        return create(name, priceCents, stock, startsAt, endsAt, 900, ",\"waitingRoom\":{\"prequeueSeconds\":"
                + prequeueSeconds + ",\"admitSeconds\":" + admitSeconds + "}" + extra);
    }

    private static long create(String name, long priceCents, int stock, Instant startsAt, Instant endsAt,
                               int payWindowSeconds, String extra) {
        Stack stack = Stack.get();
        String body = "{\"name\":\"" + name + "\",\"priceCents\":" + priceCents + ",\"stock\":" + stock
                + ",\"startsAt\":\"" + startsAt + "\",\"endsAt\":\"" + endsAt + "\",\"payWindowSeconds\":"
                + payWindowSeconds + extra + "}";
        HttpJson.Response r = new HttpJson().post(stack.adminUrl() + "/admin/sales", body,
                "Authorization", HttpJson.bearer(stack.adminToken()));
        assertEquals(201, r.status(), "create sale: " + r.body());
        return r.json().path("id").asLong();
    }
}
