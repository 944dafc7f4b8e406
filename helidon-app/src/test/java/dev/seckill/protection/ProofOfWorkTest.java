package dev.seckill.protection;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProofOfWorkTest {

    @Test
    void leadingZeroBitsCountsAcrossBytes() {
        assertEquals(0, ProofOfWork.leadingZeroBits(HexFormat.of().parseHex("80ff")));
        assertEquals(7, ProofOfWork.leadingZeroBits(HexFormat.of().parseHex("01ff")));
        assertEquals(8, ProofOfWork.leadingZeroBits(HexFormat.of().parseHex("0080")));
        assertEquals(13, ProofOfWork.leadingZeroBits(HexFormat.of().parseHex("0004ff")));
        assertEquals(16, ProofOfWork.leadingZeroBits(HexFormat.of().parseHex("0000")));
    }

    @Test
    void aNonceSolvesWhenTheHashOfSaltColonNonceHasTheLeadingZeros() {
        // SHA-256("abc:1234") computed independently: the contract's definition, not this class's.
        byte[] h = ProofOfWork.sha256("abc:1234");
        int zeros = ProofOfWork.leadingZeroBits(h);
        assertTrue(ProofOfWork.solves("abc", "1234", zeros));
        assertFalse(ProofOfWork.solves("abc", "1234", zeros + 1));
        String nonce = Solver.solve("salt", 10);
        assertTrue(ProofOfWork.leadingZeroBits(ProofOfWork.sha256("salt:" + nonce)) >= 10);
    }

    @Test
    void onlyDecimalNoncesOfAtMostNineteenDigitsAreAccepted() {
        assertTrue(ProofOfWork.validNonce("0"));
        assertTrue(ProofOfWork.validNonce("1234567890123456789"));
        assertFalse(ProofOfWork.validNonce("12345678901234567890"));
        assertFalse(ProofOfWork.validNonce("-1"));
        assertFalse(ProofOfWork.validNonce("1e3"));
        assertFalse(ProofOfWork.validNonce("١٢"));
        assertFalse(ProofOfWork.validNonce(""));
        assertFalse(ProofOfWork.solves("abc", null, 0));
    }

    @Test
    void solveFindsTheSmallestNonceThatSolves() {
        for (int bits : new int[] {1, 8, 13}) {
            String salt = "salt-" + bits;
            long nonce = ProofOfWork.solve(salt, bits);
            assertTrue(ProofOfWork.solves(salt, Long.toString(nonce), bits), "nonce " + nonce + " at " + bits);
            for (long smaller = 0; smaller < nonce; smaller++) {
                assertFalse(ProofOfWork.solves(salt, Long.toString(smaller), bits), "smaller " + smaller);
            }
        }
    }
}
