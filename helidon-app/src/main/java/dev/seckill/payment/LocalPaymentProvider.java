package dev.seckill.payment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The local stack's provider: approves every charge at once and holds no money. Its reference is derived from the
 * order and the idempotency key, so a repeated charge is the same charge, as a real provider's idempotency keys make
 * it; refunds have nothing to give back.
 */
public final class LocalPaymentProvider implements PaymentProvider {

    public static final String NAME = "local";
    private static final Logger LOG = LoggerFactory.getLogger(LocalPaymentProvider.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Charge charge(ChargeRequest request) {
        return new Charge.Approved(NAME + "-" + request.orderId() + "-" + digest(request.idempotencyKey()));
    }

    @Override
    public void refund(String reference) {
        LOG.atDebug().log(() -> "refunded " + reference + " (local provider: nothing was taken)");
    }

    /** The key's first 12 bytes of SHA-256: the reference names the key without repeating what the client sent. */
    private static String digest(String key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
