package dev.seckill.bench.scenario;

import dev.seckill.bench.load.Generators;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Progress;
import dev.seckill.bench.report.Section;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * The sold-out flood at each of --flood-levels connections for --flood-seconds, run by wrk (bench/ceilings.sh's
 * flood step), each request signed in as the next of the level's users from that user's address; wrk's reports in
 * {@value #DIR} beside the report.
 */
public record FloodLevels(Scenario s) {

    static final String DIR = "flood";

    /** One level; edgeAlerts: lines of level alert or worse in the edge's error log meanwhile; cpu: each part's CPU
     * per answer over wrk's run (wrk is the bench's). */
    public record Level(int connections, int processes, Generators.Flood.Open open, Measured measured,
                        long failedConnections, long shortCircuits, long reachedService, long rechecks,
                        long edgeAlerts, String firstAlert, Sampler.PerUnit cpu) {

        public boolean clean() {
            return open.open() >= connections && failedConnections == 0 && measured.count("0") == 0 && edgeAlerts == 0;
        }
    }

    /** The bench's step: the flood levels on the flash sale's sale, once it has sold out (else it would sell on). */
    public static List<Section> step(Scenario s) throws Exception {
        long sale = s.found().flashSale().saleId();
        Long remaining = s.stats(sale).redisRemaining();
        if (s.o().floodLevels().isEmpty() || remaining == null || remaining != 0) {
            Progress.say(s.o().floodLevels().isEmpty() ? "sold-out flood: none asked for" : "sold-out flood: skipped, "
                    + "sale " + sale + " did not sell out (remaining " + remaining + ")");
            return List.of();
        }
        List<Level> levels = new ArrayList<>();
        for (int connections : s.o().floodLevels()) {
            Progress.say("sold-out flood: " + connections + " connections for " + s.o().floodTime().toSeconds() + " s");
            s.sampler().mark("flood " + connections);
            levels.add(new FloodLevels(s).level(sale, connections));
        }
        return List.of(section(levels, s.o()));
    }

    private Level level(long saleId, int connections) throws IOException, InterruptedException {
        Map<String, Double> edge = s.meters().edge();
        Map<String, Double> service = s.meters().service();
        long logLines = edgeLog().size();
        long from = s.sampler().open();
        Generators.Flood run = Generators.flood(s.stack(), s.o().out().toAbsolutePath().resolve(DIR),
                new Users(s.stack().tokenSecret(), s.o().firstUser(), connections), saleId, s.o().floodTime());
        // A sold-out flood counts the edge's SOLD_OUT answers, as the short-circuit ceiling does, or it measures
        // something else (a limit's 429, a 404) and the bench fails with its breakdown.
        Measured m = run.measured("flood " + connections).require(Ceilings.SHORT_CIRCUIT_ANSWERS);
        Sampler.PerUnit cpu = s.sampler().close("flood " + connections, from, m.requests());
        List<String> alerts = edgeLog().stream().skip(logLines)
                .filter(l -> l.matches(".*\\[(alert|crit|emerg)].*")).toList();
        Map<String, Double> edgeAfter = s.meters().edge();
        return new Level(connections, run.processes().size(), run.open(), m, run.failedConnections(),
                Meters.delta(edge, edgeAfter, Sampler.SHORT_CIRCUITS),
                Meters.delta(service, s.meters().service(), "seckill_purchases_total"),
                Meters.delta(edge, edgeAfter, "seckill_edge_flag_rechecks_total"), alerts.size(),
                alerts.isEmpty() ? null : alerts.getFirst(), cpu);
    }

    private List<String> edgeLog() throws IOException {
        Path log = s.stack().runDir().resolve("edge/logs/error.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** The report's section ("floods" in report.json); its target: the largest level of 20,000 or more (one edge's). */
    static Section section(List<Level> levels, BenchOptions o) {
        Section s = new Section("floods", "The sold-out flood by connections").text("Purchases of the sold-out sale, "
                + "%d s per level by wrk (bench/ceilings.sh flood, reports in %s/): processes of at most 10,000 "
                + "connections, each request signed in as the next user. wrk's figures span its run, connecting "
                + "included; req/s: the processes' added; p50, p99: the highest process's; no answer: wrk's read, "
                + "write and timeout (30 s) errors. Closed loop: at saturation latency ~ connections / throughput.",
                o.floodTime().toSeconds(), DIR)
                .table("connections", "wrk processes", "open at once (all after ms)", "answers", "req/s",
                        "p50 ms (highest)", "p99 ms (highest)", "max ms", "answers by kind", "no answer",
                        "failed connections", "edge alerts", "answered by the flag", "reached the service",
                        "re-checks", "edge CPU µs per answer");
        for (Level l : levels) {
            Measured m = l.measured();
            s.row(f("%,d", l.connections()), l.processes(), f("%,d (%d)", l.open().open(), l.open().millis()),
                    f("%,d", m.requests()), f("**%,.0f**", m.rps()), f("%.1f", m.latency().p50()),
                    f("**%.1f**", m.latency().p99()), f("%.1f", m.latency().max()), m.byKind(), m.count("0"),
                    l.failedConnections(), l.edgeAlerts() == 0 ? "0" : l.edgeAlerts() + ": " + l.firstAlert(),
                    f("%,d", l.shortCircuits()), l.reachedService(), l.rechecks(),
                    f("%.1f", l.cpu().microsPerUnit().getOrDefault("edge", 0.0)));
        }
        levels.stream().filter(l -> l.connections() >= 20_000).reduce((a, b) -> b).ifPresent(l -> s.goal(f("sold-out "
                + "flood at %,d connections: failed connections, requests without an answer, edge alerts",
                l.connections()), f("%d, %d, %d", l.failedConnections(), l.measured().count("0"), l.edgeAlerts()),
                "0, 0, 0", l.clean()));
        return s.data(levels);
    }
}
