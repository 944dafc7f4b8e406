package dev.seckill.system.page;

import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.time.Instant;

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
        return sale(name, priceCents, stock, startsAt, endsAt, payWindowSeconds).create();
    }

    /**
     * A sale with a waiting room (docs/waiting-room.md) whose line opens {@code prequeueSeconds} before the start and
     * admits each buyer for {@code admitSeconds}, with the default payment window: more fields may follow, then
     * {@link AdminSales.Sale#create()}.
     */
    static AdminSales.Sale withLine(String name, long priceCents, int stock, Instant startsAt, Instant endsAt,
                                    int prequeueSeconds, int admitSeconds) {
        return sale(name, priceCents, stock, startsAt, endsAt, 900).waitingRoom(prequeueSeconds, admitSeconds);
    }

    private static AdminSales.Sale sale(String name, long priceCents, int stock, Instant startsAt, Instant endsAt,
                                        int payWindowSeconds) {
        return new AdminSales(Stack.get(), new HttpJson()).named(name).priceCents(priceCents).stock(stock)
                .startsAt(startsAt).endsAt(endsAt).with("payWindowSeconds", payWindowSeconds);
    }
}
