package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * What {@code bin/seckill bench --protection} found (issue 15), and how it reads in the report: the purchase cost of
 * a path over HTTP ({@link PathCost}: rounds and same-run ratios), a bot's solve time per difficulty and the gate's
 * in-process cost ({@link ProtectionCosts}), and the first seconds of a sale with and without the challenge
 * ({@link ArrivalCurve}). It is added to the run's report.json (field {@code protection}) and report.md (a section
 * at the end) once the rest of the report is written, so the report's own classes need not know it.
 */
record ProtectionSection(List<Measured> costRounds, List<Ratio> ratios, List<ProtectionCosts.SolveTime> solveTimes,
                         ProtectionCosts.GateCost gate, ArrivalCurve.Result arrival) {

    /** Adds the section to report.json and report.md in {@code out}. */
    void addTo(Path out) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Path report = out.resolve("report.json");
        ObjectNode root = (ObjectNode) json.readTree(report.toFile());
        root.set("protection", json.valueToTree(this));
        Files.writeString(report, json.writeValueAsString(root));
        Files.writeString(out.resolve("report.md"), "\n" + markdown(), StandardOpenOption.APPEND);
    }

    String markdown() {
        StringBuilder s = new StringBuilder("## Protected sales (issue 15, `--protection`)\n\n");
        s.append("### What a purchase path costs a purchase, over HTTP\n\n")
                .append("Interleaved rounds through the edge; in each, a new unprotected sale and a new `challenge` ")
                .append("sale, measured back to back: first clicks (202), then the same buyers again (refused in ")
                .append("Redis: 409, or the per-user 429). The paths are valid ones the bench minted with the ")
                .append("service's key, so this is what checking a path adds to a purchase (the solving comes ")
                .append("below). A ratio is the median of the rounds' ratios; 1.0 means no cost.\n\n")
                .append("| ratio | median | rounds | of the best rounds |\n|---|---|---|---|\n");
        for (Ratio r : ratios) {
            s.append(f("| %s | **%.2f** | %s | %.2f |%n", r.name(), r.median(), r.rounds(), r.ofBest()));
        }
        s.append("\n| measurement | req/s | p50 ms | p99 ms | answers |\n|---|---|---|---|---|\n");
        for (Measured m : costRounds) {
            s.append(f("| %s | %,.0f | %.1f | %.1f | %s |%n", m.name(), m.rps(), m.latency().p50(),
                    m.latency().p99(), m.byKind()));
        }
        s.append('\n').append(solveTable(solveTimes)).append('\n').append(gateParagraph(gate)).append('\n');
        arrival(s);
        return s.toString();
    }

    static String solveTable(List<ProtectionCosts.SolveTime> rows) {
        StringBuilder s = new StringBuilder("### A bot's solve time per difficulty (Java, one core)\n\n")
                .append("Fresh random salts solved by counting nonces up from 0 (as the sale page does) until about ")
                .append("2^22 hashes are spent (at least 3 salts). The expected work is 2^bits hashes; a bot pays it ")
                .append("per path, that is per purchase attempt, and cannot start before the sale does.\n\n")
                .append("| bits | salts | mean hashes | mean solve | hashes/s |\n|---|---|---|---|---|\n");
        for (ProtectionCosts.SolveTime r : rows) {
            s.append(f("| %d | %d | %,d | %.2f ms | %,.0f |%n", r.bits(), r.salts(), r.meanHashes(), r.meanMs(),
                    r.hashesPerSecond()));
        }
        return s.toString();
    }

    static String gateParagraph(ProtectionCosts.GateCost g) {
        return f("""
                ### The service's CPU per purchase decision, in-process

                The purchase decision before Redis, best of 5 interleaved rounds of %,d decisions: an unprotected \
                sale (no path to check) %.1f ns, a protected one (one HMAC-SHA-256 of the path) %.0f ns, so the \
                check adds %.2f µs of CPU per purchase. A path is checked without any lookup; a solution costs one \
                SHA-256, one HMAC and one Redis SET NX per path issued.
                """, g.decisions(), g.plainNs(), g.protectedNs(), g.addedMicros());
    }

    private void arrival(StringBuilder s) {
        ArrivalCurve.Result a = arrival;
        s.append(f("""
                ### The first seconds of a sale, with and without the challenge

                %d shoppers per sale, each on a connection opened before the start, click as soon as it is on; a \
                429 is tried again after exactly Retry-After, three purchases at most, as the sale page does. With \
                the challenge each shopper's device takes hashes / rate to solve, where hashes is what its own salt \
                took at %d bits and the rate %,.0f hashes/s: the sale page's 25,000/s scaled like the difficulty, so \
                the mean solve is the default 13 bits' (0.33 s). Purchases are counted by the 100 ms in which they \
                were sent: those the service answered, and those the edge refused (429).

                | | shoppers with a 202 | first 202 after p50 / p90 / max | busiest 100 ms at the service: \
                purchases / purchases + steps | purchases the service answered / the edge refused | every purchase's \
                answer | failed | late solves |
                |---|---|---|---|---|---|---|---|
                """, a.shoppers(), a.bits(), a.deviceHashesPerSecond()));
        for (ArrivalCurve.Side side : List.of(a.plain(), a.challenge())) {
            s.append(f("| %s | %d of %d | %.0f / %.0f / %.0f ms | **%d** / **%d** | %d / %d | %s | %d | %d |%n",
                    side.name(), side.bought(), side.shoppers(), side.p50Ms(), side.p90Ms(), side.maxMs(),
                    side.peakServed(), side.peakRequests(), side.totalServed(), side.totalRefused(), side.answers(),
                    side.failed(), side.late()));
        }
        s.append(f("%nBusiest 100 ms at the service with the challenge / without: **%.2f** counting purchases, "
                        + "**%.2f** counting every request (the challenge and path steps reach the service too).%n%n",
                ratio(a.challenge().peakServed(), a.plain().peakServed()),
                ratio(a.challenge().peakRequests(), a.plain().peakRequests())));
        s.append("Requests per 100 ms from the start (by the moment they were sent): purchases the service answered, "
                + "(purchases the edge refused), + challenge and path steps. 100 ms in which neither side sent "
                + "anything are left out.\n\n| ms | clicks at once | challenge first |\n|---|---|---|\n");
        for (int b = 0; b < ArrivalCurve.BUCKETS; b++) {
            ArrivalCurve.Side p = a.plain();
            ArrivalCurve.Side c = a.challenge();
            if (p.sent()[b] + c.sent()[b] + c.steps()[b] > 0) {
                s.append(f("| %d | %d (%d) | %d (%d) + %d |%n", b * ArrivalCurve.BUCKET.toMillis(), p.served()[b],
                        p.refusedAtEdge()[b], c.served()[b], c.refusedAtEdge()[b], c.steps()[b]));
            }
        }
    }

    private static double ratio(long top, long bottom) {
        return bottom == 0 ? 0 : (double) top / bottom;
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
