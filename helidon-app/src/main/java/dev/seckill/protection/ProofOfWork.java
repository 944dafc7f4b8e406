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
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
