package dev.seckill.sale;

/**
 * A sale as clients see it (the JSON of {@code GET /api/sales/{id}}, fields in this order): its facts, the
 * approximate remaining stock (null when Redis cannot say), its state, the server's clock for countdowns, how
 * long a winner has to pay, and its protection ({@code none}, {@code path}, {@code challenge}), which tells a
 * client which purchase route to take, and its waiting room (null when it has none: buyers purchase directly).
 */
public record SaleView(long id, String name, long priceCents, int stockTotal, Long remaining, String state,
                       String startsAt, String endsAt, String serverTime, int payWindowSeconds, String protection,
                       Line waitingRoom) {

    /** A sale's waiting room as clients see it: its settings and when the line opens. */
    public record Line(int prequeueSeconds, int admitSeconds, Integer admitPerSecond, String opensAt) {
    }
}
