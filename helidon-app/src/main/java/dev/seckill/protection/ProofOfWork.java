package dev.seckill.protection;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.regex.Pattern;

/**
 * The puzzle of a challenge: a decimal {@code nonce} solves {@code (salt, bits)} when SHA-256 of the UTF-8 bytes
 * of {@code salt + ":" + nonce} begins with {@code bits} zero bits. Checking costs one hash; finding one costs
 * 2^bits hashes on average, which is the price a bot pays per attempt.
 */
public final class ProofOfWork {

    public static final String ALGORITHM = "sha256-leading-zero-bits";
    /** A decimal of at most 19 digits: enough for any search, and no way to send a large body to hash. */
    private static final Pattern NONCE = Pattern.compile("[0-9]{1,19}");

    private ProofOfWork() {
    }

    public static boolean validNonce(String nonce) {
        return nonce != null && NONCE.matcher(nonce).matches();
    }

    public static boolean solves(String salt, String nonce, int bits) {
        return validNonce(nonce) && leadingZeroBits(sha256(salt + ":" + nonce)) >= bits;
    }

    /**
     * The smallest nonce solving {@code (salt, bits)}, counting up from 0 as the sale page's worker does: what a
     * solver pays, about 2^bits hashes. The service never solves; the bench's shoppers and its JMH benchmark do.
     */
    public static long solve(String salt, int bits) {
        MessageDigest sha = digest();
        String prefix = salt + ":";
        long n = 0;
        while (leadingZeroBits(sha.digest((prefix + n).getBytes(StandardCharsets.UTF_8))) < bits) {
            n++;
        }
        return n;
    }

    static int leadingZeroBits(byte[] hash) {
        int n = 0;
        for (byte b : hash) {
            if (b != 0) {
                return n + Integer.numberOfLeadingZeros(b & 0xff) - 24;
            }
            n += 8;
        }
        return n;
    }

    static byte[] sha256(String s) {
        return digest().digest(s.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
