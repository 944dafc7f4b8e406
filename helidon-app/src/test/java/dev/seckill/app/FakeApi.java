package dev.seckill.app;

import dev.seckill.event.OrderEvent;
import dev.seckill.http.Answers;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.ClaimRules;
import dev.seckill.identity.LoginService;
import dev.seckill.identity.TokenSigner;
import dev.seckill.identity.TokenVerifier;
import dev.seckill.order.FakePayments;
import dev.seckill.order.FakeProvider;
import dev.seckill.order.OrderLookup;
import dev.seckill.order.OrderService;
import dev.seckill.order.Payer;
import dev.seckill.order.QueuedOrders;
import dev.seckill.protection.Challenges;
import dev.seckill.protection.Protection;
import dev.seckill.protection.ProtectionService;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.SaleProtection;
import dev.seckill.purchase.DeliveryTimeout;
import dev.seckill.purchase.EdgeFlags;
import dev.seckill.purchase.FakeLedger;
import dev.seckill.purchase.FakeReserver;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.OrderIds;
import dev.seckill.purchase.OrderPublisher;
import dev.seckill.purchase.PurchaseMetrics;
import dev.seckill.purchase.Admission;
import dev.seckill.purchase.PurchaseService;
import dev.seckill.purchase.Purchaser;
import dev.seckill.purchase.Reopener;
import dev.seckill.purchase.SoldOutFlags;
import dev.seckill.purchase.UnsentSales;
import dev.seckill.sale.FakeSales;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import dev.seckill.sale.SaleService;
import dev.seckill.sale.SaleViews;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The service's real HTTP services and route table on fakes: sales in memory, a scripted stock reserver, Kafka's
 * MockProducer, a fixed clock. The admin routes are a stub that answers {@code ADMIN_REACHED}, so a test can tell
 * whether a request got there.
 */
final class FakeApi {

    static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    static final String SECRET = "unit-test-token-secret-of-32-bytes!";
    /** Running, 10 units. */
    static final Sale ACTIVE = new Sale(1, "phone", 1999, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600));
    /** Starts in 90.5 s. */
    static final Sale UPCOMING = new Sale(2, "tablet", 2999, 5, NOW.plusMillis(90_500), NOW.plusSeconds(7200));
    /** Running, behind a challenge of 4 bits. */
    static final Sale CHALLENGED = new Sale(3, "watch", 999, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600),
            Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.CHALLENGE, 4));
    /** Running, behind a path only. */
    static final Sale PATHED = new Sale(4, "lamp", 99, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600),
            Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.PATH, 0));

    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final TokenSigner signer = new TokenSigner(SECRET, Duration.ofHours(1), clock);
    /** How many sales the fake holds. */
    static final int SALES = 4;
    final FakeSales sales = new FakeSales().add(ACTIVE).add(UPCOMING).add(CHALLENGED).add(PATHED);
    final FakeReserver reserver = new FakeReserver();
    final FakeLedger ledger = new FakeLedger();
    final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final SoldOutFlags soldOut = new SoldOutFlags(clock, 1000);
    final LimiterSettings limiter = new LimiterSettings(1.0, 3);
    /** Written orders by id with their payments, the payment provider, and Redis buyer marks by "sale:user". */
    final FakePayments written = new FakePayments(clock);
    final FakeProvider provider = new FakeProvider();
    final Map<String, String> marks = new ConcurrentHashMap<>();
    final Map<Long, Long> remaining = new ConcurrentHashMap<>(Map.of(ACTIVE.id(), 7L, UPCOMING.id(), 5L,
            CHALLENGED.id(), 10L, PATHED.id(), 10L));
    /** Used challenges by "sale:salt". */
    final Set<String> used = ConcurrentHashMap.newKeySet();
    final Challenges challenges = new Challenges(SECRET, Duration.ofSeconds(60), clock);
    final PurchasePaths paths = new PurchasePaths(SECRET, Duration.ofSeconds(120), clock);

    final Routes routes;

    FakeApi() {
        Authenticator auth = new Authenticator(new TokenVerifier(SECRET, null, new ClaimRules("", "", "sub", Duration.ZERO),
                clock), registry);
        SaleCatalog catalog = new SaleCatalog(sales, clock);
        PurchaseMetrics metrics = new PurchaseMetrics(registry);
        Purchaser purchaser = new Purchaser(reserver, ledger,
                new OrderPublisher(producer, OrderEvent.TOPIC, new DeliveryTimeout(Duration.ofSeconds(5))),
                new OrderIds(clock, 1), soldOut, new Reopener(soldOut, new EdgeFlags("", registry)), metrics,
                new UnsentSales(), clock);
        Protection protection = new Protection(challenges, paths, (sale, salt, expiresAt) -> used.add(sale + ":" + salt), clock);
        HttpService admin = rules -> rules.any((req, res) ->
                Answers.json(res, Status.OK_200, Answers.body("code", "ADMIN_REACHED")));
        routes = new Routes(
                new SaleService(sales, catalog, new SaleViews(remaining::get, clock), clock),
                new PurchaseService(auth, catalog, purchaser, metrics, limiter, protection, Admission.EVERYONE),
                orders(auth, catalog),
                admin,
                new ProtectionService(auth, catalog, protection),
                new LoginService(signer), List::of, rules -> { }, rules -> { });
    }

    private OrderService orders(Authenticator auth, SaleCatalog catalog) {
        QueuedOrders.BuyerMarks byMark = (sale, user) -> Optional.ofNullable(marks.get(sale + ":" + user));
        OrderLookup lookup = new OrderLookup(written, new QueuedOrders(sales, byMark, clock), byMark);
        return new OrderService(auth, catalog, lookup, new Payer(lookup, written, provider, clock), clock);
    }

    /** Back to a fresh state between tests (the route table is built once per test class). */
    void reset() {
        reserver.reset();
        ledger.reset();
        producer.clear();
        producer.sendException = null;
        soldOut.clear(ACTIVE.id());
        written.orders.clear();
        written.payments.clear();
        written.beforeDecision = () -> { };
        provider.reset();
        marks.clear();
        used.clear();
    }

    String bearer(long userId) {
        return "Bearer " + signer.mint(userId);
    }

    /** How many purchases were answered with this outcome tag so far (meters outlive reset: compare counts). */
    double answered(String tag) {
        var c = registry.find("seckill.purchases").tag("outcome", tag).counter();
        return c == null ? 0 : c.count();
    }
}
