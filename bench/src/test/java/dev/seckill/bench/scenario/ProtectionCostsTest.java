package dev.seckill.bench.scenario;

import dev.seckill.protection.ProofOfWork;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtectionCostsTest {

    @Test
    void theBotsSolutionIsTheSmallestNonceTheServiceAccepts() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (int bits : new int[] {1, 8, 13}) {
            String salt = "salt-" + bits;
            long nonce = ProtectionCosts.solve(sha, salt, bits);
            assertTrue(ProofOfWork.solves(salt, Long.toString(nonce), bits), "nonce " + nonce + " at " + bits);
            for (long smaller = 0; smaller < nonce; smaller++) {
                assertFalse(ProofOfWork.solves(salt, Long.toString(smaller), bits), "smaller " + smaller);
            }
        }
    }
}
