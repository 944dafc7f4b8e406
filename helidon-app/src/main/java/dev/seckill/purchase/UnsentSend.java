package dev.seckill.purchase;

/**
 * A buyer's entry in the sale's unsent hash ({@code Keys.unsent}): the order whose send to Kafka failed, and when
 * its last send attempt began. The unit stays held for it, since Kafka cannot say whether a failed send was written;
 * a retry resends the order (purchase.lua answers RESEND), and reconcile may release the unit only once this send is
 * as settled as the order id's own first one.
 *
 * @param lastSendMillis epoch ms at which the last send of the order began (written by unsent.lua and purchase.lua)
 */
public record UnsentSend(long orderId, long lastSendMillis) {

    /** Parses the hash value {@code "<orderId>:<ms>"} the scripts write. */
    public static UnsentSend parse(String value) {
        int colon = value.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("not an unsent entry: " + value);
        }
        return new UnsentSend(Long.parseLong(value.substring(0, colon)), Long.parseLong(value.substring(colon + 1)));
    }

    /** When the order's latest send began: its id's creation (the first send) or a later resend. */
    public long settlingSince() {
        return Math.max(OrderIds.createdAt(orderId).toEpochMilli(), lastSendMillis);
    }
}
