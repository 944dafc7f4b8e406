package dev.seckill.bench;

import dev.seckill.protection.Challenges;
import dev.seckill.protection.Gate;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.SaleProtection;
import dev.seckill.sale.Sale;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What a protected sale (issue 15) costs, without a stack: the solve time per difficulty of a bot written in Java
 * (one core, its tightest loop: one reused MessageDigest, no HTTP), and the service's CPU per purchase decision on a
 * protected sale (one HMAC check of the path) against an unprotected one, measured in the same run. Run alone it
 * prints a Markdown section; {@code bin/seckill bench --protection} puts the same tables in its report
 * ({@link ProtectionBench}). Bounded: about 2^24 hashes in all for the solve times, a few seconds for the gate.
 *
 * <p>{@code java -cp bench/target/seckill-bench.jar dev.seckill.bench.ProtectionCosts [maxBits]}
 */
public final class ProtectionCosts {

    private static final String SECRET = "bench-token-secret-of-at-least-32-bytes";
    /** Hashes spent per difficulty at most (the average solve is 2^bits), so the whole table stays bounded. */
    private static final long HASH_BUDGET = 1L << 22;
    private static final int GATE_CHECKS = 200_000;

    private ProtectionCosts() {
    }

    /** One difficulty: salts solved, mean hashes and wall time per solve, and the loop's rate. */
    record SolveTime(int bits, int salts, long meanHashes, double meanMs, double hashesPerSecond) {
    }

    /** The in-process purchase decision, nanoseconds: unprotected sale, protected sale with a valid path. */
    record GateCost(int decisions, double plainNs, double protectedNs) {

        double addedMicros() {
            return (protectedNs - plainNs) / 1000;
        }
    }

    public static void main(String[] args) throws NoSuchAlgorithmException {
        int maxBits = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        StringBuilder md = new StringBuilder("## Protected sales (issue 15)\n\n");
        md.append(ProtectionSection.solveTable(solveTimes(maxBits))).append('\n');
        md.append(ProtectionSection.gateParagraph(gateCost())).append('\n');
        System.out.print(md);
    }

    /**
     * A bot's solve time at 8, 10, ... {@code maxBits}: each row solves fresh random salts by counting nonces up from
     * 0 (as the sale page does) until about 2^22 hashes are spent (at least 3 salts), after a JIT warm-up.
     */
    static List<SolveTime> solveTimes(int maxBits) throws NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        SecureRandom random = new SecureRandom();
        solveAll(sha, random, 64, 12); // JIT warm-up (about 2^18 hashes), not reported
        List<SolveTime> rows = new ArrayList<>();
        for (int bits = 8; bits <= maxBits; bits += 2) {
            int salts = (int) Math.max(3, Math.min(200, HASH_BUDGET >> bits));
            long t0 = System.nanoTime();
            long hashes = solveAll(sha, random, salts, bits);
            double seconds = (System.nanoTime() - t0) / 1e9;
            rows.add(new SolveTime(bits, salts, hashes / salts, seconds * 1000 / salts, hashes / seconds));
        }
        return rows;
    }

    /** The smallest nonce solving {@code salt} at {@code bits}, counting up from 0 as the sale page does. */
    static long solve(MessageDigest sha, String salt, int bits) {
        String prefix = salt + ":";
        long n = 0;
        while (!solves(sha.digest((prefix + n).getBytes(StandardCharsets.UTF_8)), bits)) {
            n++;
        }
        return n;
    }

    /** Solves {@code salts} random salts at {@code bits}; returns the hashes spent. */
    private static long solveAll(MessageDigest sha, SecureRandom random, int salts, int bits) {
        long hashes = 0;
        byte[] s = new byte[16];
        for (int i = 0; i < salts; i++) {
            random.nextBytes(s);
            hashes += solve(sha, Base64.getUrlEncoder().withoutPadding().encodeToString(s), bits) + 1;
        }
        return hashes;
    }

    private static boolean solves(byte[] hash, int bits) {
        int whole = bits >> 3;
        for (int i = 0; i < whole; i++) {
            if (hash[i] != 0) {
                return false;
            }
        }
        int rest = bits & 7;
        return rest == 0 || (hash[whole] & 0xff) >>> (8 - rest) == 0;
    }

    /** The service's purchase decision before Redis, protected (a valid path) against unprotected, same run. */
    static GateCost gateCost() {
        Clock clock = Clock.systemUTC();
        Instant now = clock.instant();
        PurchasePaths paths = new PurchasePaths(SECRET, Duration.ofSeconds(120), clock);
        Gate gate = new Gate(new Challenges(SECRET, Duration.ofSeconds(60), clock), paths,
                (sale, salt, expiresAt) -> true, clock);
        Sale plain = new Sale(1, "plain", 100, 10, now.minusSeconds(1), now.plusSeconds(3600));
        Sale guarded = new Sale(2, "guarded", 100, 10, now.minusSeconds(1), now.plusSeconds(3600),
                Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.CHALLENGE, 13));
        String[] tokens = new String[1024];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = paths.mint(guarded.id(), i).path();
        }
        double plainNs = 0;
        double guardedNs = 0;
        // Interleaved rounds, the best of each side: a neighbour's burst hits both alike.
        for (int round = 0; round < 5; round++) {
            plainNs = best(plainNs, time(() -> {
                int pass = 0;
                for (int i = 0; i < GATE_CHECKS; i++) {
                    pass += gate.purchase(plain, i & 1023, null) == Gate.PathCheck.PASS ? 1 : 0;
                }
                return pass;
            }));
            guardedNs = best(guardedNs, time(() -> {
                int pass = 0;
                for (int i = 0; i < GATE_CHECKS; i++) {
                    pass += gate.purchase(guarded, i & 1023, tokens[i & 1023]) == Gate.PathCheck.PASS ? 1 : 0;
                }
                return pass;
            }));
        }
        return new GateCost(GATE_CHECKS, plainNs, guardedNs);
    }

    private static double best(double sofar, double ns) {
        return sofar == 0 ? ns : Math.min(sofar, ns);
    }

    /** Nanoseconds per decision of one round (the count of passes keeps the JIT from dropping the loop). */
    private static double time(java.util.function.IntSupplier round) {
        long t0 = System.nanoTime();
        int passes = round.getAsInt();
        long ns = System.nanoTime() - t0;
        if (passes != GATE_CHECKS) {
            throw new IllegalStateException("expected every decision to pass, got " + passes);
        }
        return (double) ns / GATE_CHECKS;
    }
}
