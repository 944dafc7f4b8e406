package dev.seckill.line;

/**
 * A buyer's place in a sale's line, as its signed ticket carries it ({@link LineTickets}).
 *
 * @param prequeue true for a place in the pre-queue (ordered by {@code value}, a random number below 2^52), false
 *                 for a place after the draw ({@code value} its sequence number from 1)
 * @param expires  epoch seconds after which the ticket is refused (the sale's end)
 */
public record LineTicket(long saleId, long userId, boolean prequeue, long value, long expires) {

    /** The place as line_join.lua stores it and the ticket spells it. */
    public String place() {
        return (prequeue ? "p" : "s") + value;
    }
}
