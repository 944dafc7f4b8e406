package dev.seckill.bench.scenario;

import dev.seckill.protection.ProofOfWork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.security.MessageDigest;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** The difficulty reaches the benchmark as JMH runs it (a reset @AuxCounters field would read 0 and never solve). */
    @Test
    @Timeout(120)
    void jmhRunsTheSolveAtTheDifficultyItNames() throws Exception {
        RunResult r = new Runner(new CommandLineOptions(ProtectionCosts.class.getName() + ".solve", "-p", "bits=8",
                "-f", "0", "-wi", "0", "-i", "1", "-r", "200ms", "-v", "SILENT")).runSingle();
        double hashesPerSolve = r.getSecondaryResults().get("hashes").getScore()
                / r.getSecondaryResults().get("solves").getScore();
        assertEquals("8", r.getParams().getParam("bits"));
        assertTrue(hashesPerSolve > 64 && hashesPerSolve < 1024, "about 2^8 hashes a solve, not " + hashesPerSolve);
    }
}
