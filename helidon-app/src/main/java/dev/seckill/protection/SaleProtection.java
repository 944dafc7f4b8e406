package dev.seckill.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.failure.InvalidInput;

import java.util.Locale;

/**
 * How a sale guards its purchase route against scripted buyers (docs/contract.md, "Protected sales"):
 * {@code none} (the plain route, as before), {@code path} (a per-user purchase path fetched after the start), or
 * {@code challenge} (the path costs a proof of work of {@code bits} leading zero bits first).
 *
 * @param bits the difficulty, 0 unless the mode is CHALLENGE
 */
public record SaleProtection(Mode mode, int bits) {

    public enum Mode { NONE, PATH, CHALLENGE }

    public static final SaleProtection NONE = new SaleProtection(Mode.NONE, 0);
    public static final int MIN_BITS = 1;
    public static final int MAX_BITS = 32;
    /**
     * 2^13 = 8,192 hashes expected: about 0.3 s for the sale page's Web Worker (crypto.subtle, measured at ~25,000
     * SHA-256/s in headless Chromium on the project's 2-core machine under load; ProtectedSalePageIT prints the rate),
     * a few milliseconds for a Java bot at ~1.2 M/s on one core (microbench's ProtectionCheck). Tests pass small values.
     */
    public static final int DEFAULT_BITS = 13;

    public SaleProtection {
        if (mode == Mode.CHALLENGE ? bits < MIN_BITS || bits > MAX_BITS : bits != 0) {
            throw new IllegalArgumentException("bits " + bits + " do not fit the mode " + mode);
        }
    }

    /** The optional {@code protection} and {@code challengeBits} of an admin create body; every problem is a 400. */
    public static SaleProtection from(JsonNode body) {
        JsonNode p = body.get("protection");
        JsonNode b = body.get("challengeBits");
        Mode mode = Mode.NONE;
        if (p != null && !p.isNull()) {
            mode = p.isTextual() ? mode(p.asText()) : null;
            if (mode == null) {
                throw new InvalidInput("protection", "protection must be one of none, path, challenge");
            }
        }
        if (b == null || b.isNull()) {
            return mode == Mode.CHALLENGE ? new SaleProtection(mode, DEFAULT_BITS) : new SaleProtection(mode, 0);
        }
        if (mode != Mode.CHALLENGE) {
            throw new InvalidInput("challengeBits", "challengeBits is only for protection challenge");
        }
        if (!b.isIntegralNumber() || !b.canConvertToInt() || b.asInt() < MIN_BITS || b.asInt() > MAX_BITS) {
            throw new InvalidInput("challengeBits",
                    "challengeBits must be an integer from " + MIN_BITS + " to " + MAX_BITS);
        }
        return new SaleProtection(mode, b.asInt());
    }

    /** As stored (the sale table's {@code protection} and {@code challenge_bits} columns). */
    public static SaleProtection stored(String mode, int bits) {
        Mode m = mode(mode);
        if (m == null) {
            throw new IllegalStateException("unknown stored protection " + mode);
        }
        return new SaleProtection(m, bits);
    }

    /** The spelling of the API and the database. */
    public String wire() {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    public boolean guarded() {
        return mode != Mode.NONE;
    }

    private static Mode mode(String s) {
        for (Mode m : Mode.values()) {
            if (m.name().toLowerCase(Locale.ROOT).equals(s)) {
                return m;
            }
        }
        return null;
    }
}
