package dev.seckill.check;

/**
 * One {@code seckill_order} row as MySQL holds it at the end of a run.
 *
 * @param payByMillis {@code written_at + pay_window_seconds}, epoch milliseconds (the database's clock)
 * @param requestId   the purchase's {@code X-Request-Id} from its CONFIRMED outbox row, while that row is still there
 *                    (the relay deletes it once Kafka has the event), else null
 * @param paid        whether a {@code payment} row names the order
 */
public record FinalOrder(long orderId, long userId, State state, long payByMillis, String requestId, boolean paid) {

    /** The order's state column. */
    public enum State { CONFIRMED, PAID, EXPIRED }

    /** CONFIRMED and PAID orders hold a unit; an EXPIRED one gave it back. */
    public boolean live() {
        return state != State.EXPIRED;
    }

    /** The order id as the API spells it (a JSON string). */
    public String id() {
        return Long.toString(orderId);
    }
}
