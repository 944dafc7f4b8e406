package dev.seckill.protection;

/** Finds a nonce by counting up from 0, the way the sale page's worker does (tests use small difficulties). */
public final class Solver {

    private Solver() {
    }

    public static String solve(String salt, int bits) {
        for (long n = 0; ; n++) {
            String nonce = Long.toString(n);
            if (ProofOfWork.solves(salt, nonce, bits)) {
                return nonce;
            }
        }
    }

    /** A nonce that does not solve (one exists within a few tries at any difficulty of 1 bit or more). */
    public static String wrong(String salt, int bits) {
        for (long n = 0; ; n++) {
            String nonce = Long.toString(n);
            if (!ProofOfWork.solves(salt, nonce, bits)) {
                return nonce;
            }
        }
    }
}
