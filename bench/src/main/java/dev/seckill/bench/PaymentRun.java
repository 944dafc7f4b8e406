package dev.seckill.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flash sale with payment behaviour (issue 14), after its crowd: the winners of each wave pay or let their
 * window lapse ({@link Payers}); once every order of the sale is PAID or EXPIRED and Redis has every lapsed unit
 * back, the returned units go on sale to a fresh crowd ({@value #SHOPPERS_PER_UNIT} shoppers per unit, who pay the
 * same way), for at most {@value #WAVES} waves in all. What it counts: units returned, units sold again, and each
 * wave's payments; every 202 of every wave joins the invariant check.
 */
final class PaymentRun {

    static final int WAVES = 3;
    static final int SHOPPERS_PER_UNIT = 5;

    /** One wave: its shoppers, the units on sale when it began, its 202s, and what its winners' payments came to. */
    record Wave(int wave, int shoppers, long unitsOnSale, long accepted, Map<String, Long> payments) {
    }

    /**
     * @param returned units that came back from lapsed orders (the sale's expired orders)
     * @param resold   units sold again: the 202s of the waves after the first
     * @param attempts every purchase attempt of every wave
     */
    record Result(long saleId, double payRatio, long payWindowSeconds, List<Wave> waves, long returned, long resold,
                  Admin.SaleStats settled, @JsonIgnore List<Attempt> attempts) {
    }

    private PaymentRun() {
    }

    static Result run(Stack stack, Admin admin, BenchOptions o, FlashSale.Result sale, Payers first)
            throws IOException, InterruptedException {
        List<Attempt> all = new ArrayList<>(sale.attempts());
        List<Wave> waves = new ArrayList<>();
        long accepted = sale.accepted();
        waves.add(new Wave(1, o.users(), o.stock(), accepted, first.finish()));
        Duration settle = o.payWindow().plusSeconds(60);
        long nextUser = o.firstUser() + o.users();
        for (int w = 2; w <= WAVES; w++) {
            Admin.SaleStats s = settled(admin, sale.saleId(), accepted, settle);
            long onSale = s.redisRemaining() == null ? 0 : s.redisRemaining();
            if (onSale == 0) {
                break;
            }
            int n = (int) Math.min(1_000_000, onSale * SHOPPERS_PER_UNIT);
            Users crowdUsers = new Users(stack.tokenSecret(), nextUser, n);
            nextUser += n;
            Bench.say("wave " + w + ": " + onSale + " returned units on sale again to " + n + " new shoppers");
            try (Payers payers = new Payers(stack.edgeUrl(), crowdUsers, o.payRatio(), o.payWindow())) {
                long t0 = System.nanoTime();
                Crowd crowd = new Crowd(crowdUsers, sale.saleId(), stack.edgePort(), o.attempts(), t0);
                LoadClient.run(new InetSocketAddress("127.0.0.1", stack.edgePort()), Math.min(o.connections(), n),
                        new PayingCrowd(crowd, payers), t0 + o.duration().toNanos(), Duration.ofSeconds(30));
                long won = crowd.attempts().stream().filter(Attempt::accepted).count();
                accepted += won;
                all.addAll(crowd.attempts());
                waves.add(new Wave(w, n, onSale, won, payers.finish()));
            }
        }
        Admin.SaleStats last = settled(admin, sale.saleId(), accepted, settle);
        long resold = waves.stream().skip(1).mapToLong(Wave::accepted).sum();
        return new Result(sale.saleId(), o.payRatio(), o.payWindow().toSeconds(), waves, last.dbExpired(), resold,
                last, all);
    }

    private static Admin.SaleStats settled(Admin admin, long saleId, long accepted, Duration timeout)
            throws IOException, InterruptedException {
        Admin.SaleStats s = admin.awaitSettled(saleId, accepted, timeout);
        if (s == null) {
            throw new IllegalStateException("sale " + saleId + " did not settle within " + timeout.toSeconds()
                    + " s (orders still CONFIRMED past their window, or units still owed to Redis): "
                    + admin.stats(saleId));
        }
        return s;
    }
}
