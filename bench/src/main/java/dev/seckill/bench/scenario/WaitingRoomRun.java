package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.LineCrowd;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.report.Section;
import dev.seckill.redis.Keys;
import dev.seckill.bench.scenario.PaymentRun.Payers;
import dev.seckill.testkit.Stack;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

import static dev.seckill.bench.report.Section.f;

/**
 * The waiting room against the same crowd without one: the users join a line whose pre-queue opens
 * {@link #PREQUEUE_SECONDS} before the start, half of them at random moments across it, the other half over the
 * {@link #AFTER_SECONDS} after the start, and {@link #BOTS} scripted clients the instant it opens, polling every
 * {@link LineCrowd#BOT_POLL_MS} ms. Winners pay with the run's pay ratio (half when none is set) within a short
 * window, the others let it lapse, so returned units go to the next in line. Then the same users, as the sale page
 * behaves, on a sale without a line. Places are read from Redis at the end; every sale's invariants are checked.
 */
public final class WaitingRoomRun {

    static final int PREQUEUE_SECONDS = 20;
    static final int AFTER_SECONDS = 10;
    static final int BOTS = 200;
    static final int ADMIT_SECONDS = 20;
    static final Duration PAY_WINDOW = Duration.ofSeconds(5);

    private WaitingRoomRun() {
    }

    /** The bench's step with --waiting-room. */
    public static List<Section> step(Scenario s) throws Exception {
        return s.o().waitingRoom() ? List.of(run(s)) : List.of();
    }

    /** Both sales' invariants go into the run's checks; returns the report's section. */
    static Section run(Scenario sc) throws Exception {
        Stack stack = sc.stack();
        Users users = sc.users();
        int stock = sc.o().stock();
        Instant now = Instant.now();
        Instant start = now.plusSeconds(PREQUEUE_SECONDS);
        long sale = sc.createSale("bench-waiting-room-" + System.currentTimeMillis(), stock, start,
                Map.of("payWindowSeconds", PAY_WINDOW.toSeconds(),
                        "waitingRoom", Map.of("prequeueSeconds", PREQUEUE_SECONDS, "admitSeconds", ADMIT_SECONDS)));
        int n = users.size();
        int bots = Math.min(BOTS, n / 100);
        long t0 = System.nanoTime();
        long startNanos = t0 + Duration.between(now, start).toNanos();
        double ratio = sc.o().payRatio() < 0 ? 0.5 : sc.o().payRatio();
        Map<String, Long> paid;
        LineCrowd crowd;
        double before = serviceRequests(sc.meters());
        try (Payers payers = new Payers(stack.edgeUrl(), users, ratio, PAY_WINDOW)) {
            crowd = new LineCrowd(users, sale, stack.edgePort(), ADMIT_SECONDS * 1000L, payers::won);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < n; i++) {
                boolean bot = i < bots;
                boolean early = bot || i % 2 == 0;
                long at = bot ? t0 + 300_000_000L
                        : early ? random.nextLong(t0 + 500_000_000L, startNanos - 500_000_000L)
                        : random.nextLong(startNanos + 500_000_000L, startNanos + AFTER_SECONDS * 1_000_000_000L);
                crowd.add(i, bot ? LineCrowd.Kind.BOT : early ? LineCrowd.Kind.PREQUEUE : LineCrowd.Kind.AFTER_START,
                        at);
            }
            Progress.say("waiting room " + sale + ": " + stock + " units, " + n + " buyers (" + bots + " scripted), line"
                    + " opens now, starts in " + PREQUEUE_SECONDS + " s");
            LoadClient.run(stack.edgePort(), sc.o().connections(), crowd,
                    startNanos + Duration.ofSeconds(240).toNanos(), Duration.ofSeconds(30));
            paid = payers.finish();
        }
        long reached = Math.round(serviceRequests(sc.meters()) - before);
        sc.awaitDrained("waiting room", sale, crowd.attempts(), Duration.ofSeconds(120));
        sc.check("waiting room", sale, crowd.attempts(), null);

        Progress.say("waiting room: the same crowd on a sale without a line");
        long plain = sc.sale("bench-no-line-" + System.currentTimeMillis(), stock, PAY_WINDOW);
        long p0 = System.nanoTime();
        Crowd page = new Crowd(users, plain, stack.edgePort(), Integer.MAX_VALUE, p0).likeThePage();
        before = serviceRequests(sc.meters());
        page.run(sc.o().connections(), p0 + Duration.ofSeconds(120).toNanos());
        long plainReached = Math.round(serviceRequests(sc.meters()) - before);
        sc.awaitDrained("waiting room, no line", plain, page.attempts(), Duration.ofSeconds(120));
        sc.check("waiting room's crowd without a line", plain, page.attempts(), null);
        Map<Long, Long> places = places(sc.redis(), sale);
        long prequeue = sc.redis().getScoredSortedSet(Keys.linePrequeue(sale), StringCodec.INSTANCE)
                .size();
        return section(sale, places, prequeue, crowd, page, paid, stock, reached, plainReached);
    }

    /**
     * Requests the service's public listener answered so far (its own counter): what reached it, whoever answered
     * the rest (the edge's flag copies carry no X-Seckill-Answered-By, so the answers alone cannot tell).
     */
    private static double serviceRequests(Meters meters) throws Exception {
        return meters.service().entrySet().stream()
                .filter(e -> e.getKey().startsWith("seckill_api_requests_total"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** Every buyer's place from 1: the pre-queue in its drawn order, then the sequence after the draw. */
    private static Map<Long, Long> places(RedissonClient redis, long sale) {
        List<String> drawn = new ArrayList<>(redis.<String>getScoredSortedSet(Keys.linePrequeue(sale),
                StringCodec.INSTANCE).valueRange(0, -1));
        Map<Long, Long> places = new HashMap<>();
        for (int r = 0; r < drawn.size(); r++) {
            places.put(Long.parseLong(drawn.get(r)), r + 1L);
        }
        redis.<String, String>getMap(Keys.linePlaces(sale), StringCodec.INSTANCE).readAllMap().forEach((u, p) -> {
            if (p.startsWith("s")) {
                places.put(Long.parseLong(u), drawn.size() + Long.parseLong(p.substring(1)));
            }
        });
        return places;
    }

    /**
     * The groups are the line's own verdict: a place within the pre-queue ({@code place <= prequeue}) or after it.
     * A buyer meant to join during the pre-queue whose join the load client could only send after the draw is
     * placed after it, and counted there (with its real joining moment), and the section says how many.
     */
    private static Section section(long sale, Map<Long, Long> places, long drawn, LineCrowd crowd, Crowd page,
                                   Map<String, Long> paid, int stock, long reached, long plainReached) {
        List<LineCrowd.Buyer> all = crowd.buyers();
        List<LineCrowd.Buyer> placed = all.stream().filter(b -> places.containsKey(b.userId)).toList();
        double rhoPre = spearman(placed, b -> places.get(b.userId) <= drawn, places);
        double rhoAfter = spearman(placed, b -> places.get(b.userId) > drawn, places);
        long late = placed.stream().filter(b -> b.kind != LineCrowd.Kind.AFTER_START && places.get(b.userId) > drawn)
                .count();
        long bots = all.stream().filter(b -> b.kind == LineCrowd.Kind.BOT).count();
        long prequeue = all.stream().filter(b -> b.kind != LineCrowd.Kind.AFTER_START).count();
        long bought = all.stream().filter(b -> b.boughtNanos >= 0).count();
        long botsBought = all.stream().filter(b -> b.boughtNanos >= 0 && b.kind == LineCrowd.Kind.BOT).count();
        // Admitted out of line order: a buyer admitted after someone placed behind them.
        List<LineCrowd.Buyer> admitted = placed.stream().filter(b -> b.admittedAtMs >= 0)
                .sorted(Comparator.comparingLong((LineCrowd.Buyer b) -> b.admittedAtMs)).toList();
        long outOfOrder = 0;
        long maxEarlier = 0;
        long maxThisStep = 0;
        long step = Long.MIN_VALUE;
        for (LineCrowd.Buyer b : admitted) {
            if (b.admittedAtMs != step) {
                maxEarlier = Math.max(maxEarlier, maxThisStep);
                step = b.admittedAtMs;
            }
            long place = places.get(b.userId);
            outOfOrder += place < maxEarlier ? 1 : 0;
            maxThisStep = Math.max(maxThisStep, place);
        }
        long requests = all.stream().mapToLong(b -> b.requests).sum();
        long polls = all.stream().mapToLong(b -> b.polls).sum();
        long pollsByEdge = all.stream().mapToLong(b -> b.pollsByEdge).sum();
        long lastBought = all.stream().mapToLong(b -> b.boughtNanos).max().orElse(-1);
        long lastSoldOut = all.stream().mapToLong(b -> b.soldOutNanos).max().orElse(-1);
        long waiting = all.stream().filter(b -> b.boughtNanos < 0 && b.soldOutNanos < 0).count();
        long plainRequests = page.attempts().size();
        double share = polls == 0 ? 0 : (double) pollsByEdge / polls;
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("saleId", sale);
        data.put("buyers", all.size());
        data.put("scriptedClients", bots);
        data.put("rhoPrequeue", rhoPre);
        data.put("prequeuePlaces", drawn);
        data.put("meantForThePrequeueButSentAfterTheDraw", late);
        data.put("rhoAfterStart", rhoAfter);
        data.put("botsShareOfPrequeue", (double) bots / prequeue);
        data.put("botsShareOfUnits", bought == 0 ? 0 : (double) botsBought / bought);
        data.put("admittedOutOfOrder", outOfOrder);
        data.put("requestsPerBuyer", (double) requests / all.size());
        data.put("requestsReachingService", reached);
        data.put("requestsPerBuyerWithoutLine", (double) plainRequests / all.size());
        data.put("requestsReachingServiceWithoutLine", plainReached);
        data.put("pollsAnsweredByEdge", share);
        data.put("secondsFromLastSaleToLastSoldOut", lastBought < 0 || lastSoldOut < 0 ? null
                : (lastSoldOut - lastBought) / 1e9);
        data.put("unitsBought", bought);
        data.put("stillWaitingAtTheEnd", waiting);
        data.put("payments", paid);
        data.put("answers", crowd.answers());
        return new Section("waitingRoom", "The waiting room").data(data)
                .goal("waiting room: rank correlation joining time / place, pre-queue", f("%.4f", rhoPre),
                        "|ρ| <= 0.05", Math.abs(rhoPre) <= 0.05)
                .goal("waiting room: rank correlation joining time / place, after the start", f("%.4f", rhoAfter),
                        ">= 0.99", rhoAfter >= 0.99)
                .goal("waiting room: polls answered by the edge", f("%.2f %%", 100 * share), ">= 99 %", share >= 0.99)
                .text(f("Sale %d: %,d units, %,d buyers (%,d in the pre-queue, %d of them scripted clients joining "
                                + "the instant the line opened and polling every %d ms; %,d after the start), a %d s "
                                + "payment window some winners let lapse. Then the same users, as the sale page "
                                + "behaves, on a sale without a line.", sale, stock, all.size(), prequeue, bots,
                        LineCrowd.BOT_POLL_MS, all.size() - prequeue, PAY_WINDOW.toSeconds()))
                .table("measure", "value", "target")
                .row("rank correlation joining time / place, pre-queue", f("%.4f", rhoPre), "|ρ| ≤ 0.05: "
                        + (Math.abs(rhoPre) <= 0.05 ? "met" : "**not met**"))
                .row("rank correlation joining time / place, after the start", f("%.4f", rhoAfter),
                        "≥ 0.99: " + (rhoAfter >= 0.99 ? "met" : "**not met**"))
                .row("places in the pre-queue / buyers meant for it whose join was sent after the draw",
                        f("%,d / %,d", drawn, late), "")
                .row("admissions out of line order (returned units included)", outOfOrder, "0")
                .row("scripted clients: share of the pre-queue / of the units",
                        f("%.2f %% / %.2f %%", 100.0 * bots / prequeue, bought == 0 ? 0 : 100.0 * botsBought / bought),
                        "no better than their share")
                .row("requests per buyer, with the line / without", f("%.1f / %.1f", (double) requests / all.size(),
                        (double) plainRequests / all.size()), "")
                .row("requests reaching the service (its own counter), with the line / without",
                        f("%,d / %,d", reached, plainReached), "")
                .row("polls answered by the edge", f("%.2f %% of %,d", 100 * share, polls), "≥ 99 %: "
                        + (share >= 0.99 ? "met" : "**not met**"))
                .row("from the last unit sold to the last waiting client hearing SOLD_OUT",
                        data.get("secondsFromLastSaleToLastSoldOut") == null ? "-"
                                : f("%.2f s", (Double) data.get("secondsFromLastSaleToLastSoldOut")), "")
                .row("units bought (returned units sold again included) / still waiting at the end",
                        f("%,d / %,d", bought, waiting), "")
                .row("winners' payments", String.valueOf(paid), "")
                .row("every answer the line's buyers got, by request, status and code", String.valueOf(crowd.answers()),
                        "");
    }

    /** Spearman's rank correlation of joining time and place over the buyers {@code which} selects. */
    static double spearman(List<LineCrowd.Buyer> buyers, Predicate<LineCrowd.Buyer> which, Map<Long, Long> places) {
        List<LineCrowd.Buyer> group = buyers.stream().filter(which).toList();
        return group.size() < 3 ? Double.NaN : new SpearmansCorrelation().correlation(
                group.stream().mapToDouble(b -> b.joinedNanos >= 0 ? b.joinedNanos : b.joinAt).toArray(),
                group.stream().mapToDouble(b -> places.get(b.userId)).toArray());
    }
}
