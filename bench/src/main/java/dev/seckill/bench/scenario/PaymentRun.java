package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.BenchOptions;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.PayingCrowd;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Admin;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;
import com.fasterxml.jackson.annotation.JsonIgnore;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * The flash sale with payment behaviour: each wave's winners pay or let the window lapse ({@link Payers}); once every
 * order is PAID or EXPIRED and Redis has its lapsed units back, those go on sale to {@value #SHOPPERS_PER_UNIT} new
 * shoppers per unit, for at most {@value #WAVES} waves; then, with --expiry-orders, the {@link ExpiryImpact}.
 */
public final class PaymentRun {

    static final int WAVES = 3;
    static final int SHOPPERS_PER_UNIT = 5;

    /** One wave: its shoppers, the units on sale when it began, its 202s, what its winners' payments came to. */
    record Wave(int wave, int shoppers, long unitsOnSale, long accepted, Map<String, Long> payments) {
    }

    /** {@code returned}: units lapsed orders gave back; {@code resold}: the 202s of the waves after the first. */
    public record Result(long saleId, double payRatio, long payWindowSeconds, List<Wave> waves, long returned,
            long resold,
                  Admin.SaleStats settled, ExpiryImpact.Result expiry, @JsonIgnore List<Attempt> attempts) {

        /** The report's section ("payments" in report.json). */
        public Section section() {
            Section s = new Section("payments", "Payments: winners pay or let the window lapse, returned units sold "
                    + "again").text("Sale %d: %.0f %% of the winners pay within a %d s window, the others let it "
                    + "lapse; then the returned units went on sale to %d new shoppers per unit.", saleId,
                    100 * payRatio, payWindowSeconds, SHOPPERS_PER_UNIT)
                    .table("wave", "shoppers", "units on sale", "202 answers", "payments");
            waves.forEach(w -> s.row(w.wave(), f("%,d", w.shoppers()), f("%,d", w.unitsOnSale()),
                    f("%,d", w.accepted()), w.payments()));
            s.text("**%,d units came back from lapsed orders; %,d were sold again.** At the end: %,d paid, %,d "
                    + "expired, %s left in Redis.", returned, resold, settled.dbPaid(), settled.dbExpired(),
                    settled.redisRemaining());
            return (expiry == null ? s : expiry.addTo(s)).data(this);
        }
    }

    public static Result run(Stack stack, Admin admin, BenchOptions o, FlashSale.Result sale, Payers first)
            throws IOException, InterruptedException {
        List<Attempt> all = new ArrayList<>(sale.attempts());
        List<Wave> waves = new ArrayList<>(List.of(new Wave(1, o.users(), o.stock(), sale.accepted(), first.finish())));
        long nextUser = o.firstUser() + o.users();
        Admin.SaleStats settled = settled(admin, o, sale.saleId(), all);
        for (int w = 2; w <= WAVES && settled.redisRemaining() != null && settled.redisRemaining() > 0; w++) {
            long onSale = settled.redisRemaining();
            int n = (int) Math.min(1_000_000, onSale * SHOPPERS_PER_UNIT);
            Users users = new Users(stack.tokenSecret(), nextUser, n);
            nextUser += n;
            Bench.say("wave " + w + ": " + onSale + " returned units on sale again to " + n + " new shoppers");
            try (Payers payers = new Payers(stack.edgeUrl(), users, o.payRatio(), o.payWindow())) {
                long t0 = System.nanoTime();
                Crowd crowd = new Crowd(users, sale.saleId(), stack.edgePort(), o.attempts(), t0);
                LoadClient.run(new InetSocketAddress("127.0.0.1", stack.edgePort()), Math.min(o.connections(), n),
                        new PayingCrowd(crowd, payers), t0 + o.duration().toNanos(), Duration.ofSeconds(30));
                all.addAll(crowd.attempts());
                waves.add(new Wave(w, n, onSale, crowd.attempts().stream().filter(Attempt::accepted).count(),
                        payers.finish()));
            }
            settled = settled(admin, o, sale.saleId(), all);
        }
        ExpiryImpact.Result expiry = o.expiryOrders() > 0
                ? ExpiryImpact.run(stack, admin, o.expiryOrders(), nextUser, o.connections()) : null;
        return new Result(sale.saleId(), o.payRatio(), o.payWindow().toSeconds(), waves, settled.dbExpired(),
                waves.stream().skip(1).mapToLong(Wave::accepted).sum(), settled, expiry, all);
    }

    /** Every order PAID or EXPIRED and every lapsed unit back in Redis, within the window and a minute. */
    private static Admin.SaleStats settled(Admin admin, BenchOptions o, long saleId, List<Attempt> attempts)
            throws IOException, InterruptedException {
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        Admin.SaleStats s = admin.awaitSettled(saleId, accepted, o.payWindow().plusSeconds(60));
        if (s == null) {
            throw new IllegalStateException("sale " + saleId + " did not settle: " + admin.stats(saleId));
        }
        return s;
    }
}
