package dev.seckill.app;

import dev.seckill.admin.AdminAuth;
import dev.seckill.admin.AdminService;
import dev.seckill.admin.ConsumerLag;
import dev.seckill.admin.PeriodicReconcile;
import dev.seckill.admin.ReconcileSettings;
import dev.seckill.admin.Reconciler;
import dev.seckill.admin.SaleAudit;
import dev.seckill.archive.ArchiveRunner;
import dev.seckill.archive.ArchiveSettings;
import dev.seckill.archive.Archiver;
import dev.seckill.archive.EndedSales;
import dev.seckill.breaker.BreakerSettings;
import dev.seckill.breaker.Breakers;
import dev.seckill.breaker.GuardedOrders;
import dev.seckill.breaker.GuardedReserver;
import dev.seckill.breaker.GuardedSales;
import dev.seckill.expiry.Expiry;
import dev.seckill.expiry.ExpiryMetrics;
import dev.seckill.expiry.ExpiryRunner;
import dev.seckill.expiry.ExpirySettings;
import dev.seckill.expiry.LapsedOrderRepository;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.JwksKeys;
import dev.seckill.identity.LoginService;
import dev.seckill.identity.TokenSigner;
import dev.seckill.line.LineAdminService;
import dev.seckill.line.LineAdmission;
import dev.seckill.line.LineService;
import dev.seckill.line.LineTickets;
import dev.seckill.line.Lines;
import dev.seckill.line.Standings;
import dev.seckill.order.ArchivedMarks;
import dev.seckill.order.IssuableOrderIds;
import dev.seckill.order.OrderLookup;
import dev.seckill.order.OrderRepository;
import dev.seckill.order.OrderService;
import dev.seckill.order.Payer;
import dev.seckill.order.PaymentRepository;
import dev.seckill.order.QueuedOrders;
import dev.seckill.payment.LocalPaymentProvider;
import dev.seckill.protection.Challenges;
import dev.seckill.protection.Protection;
import dev.seckill.protection.ProtectionService;
import dev.seckill.protection.ProtectionSettings;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.RedisUsedChallenges;
import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.EdgeFlags;
import dev.seckill.purchase.KafkaSettings;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.OrderIds;
import dev.seckill.purchase.OrderPublisher;
import dev.seckill.purchase.PurchaseMetrics;
import dev.seckill.purchase.PurchaseService;
import dev.seckill.purchase.Purchaser;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.purchase.Reopener;
import dev.seckill.purchase.ResendSettings;
import dev.seckill.purchase.Resender;
import dev.seckill.purchase.SoldOutFlags;
import dev.seckill.purchase.StockReserver;
import dev.seckill.purchase.UnsentSales;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.ShardMap;
import dev.seckill.sale.SaleCatalog;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleService;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.SaleViews;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Metrics;
import org.apache.kafka.clients.admin.Admin;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Builds the services from the settings and clients, and hands them to the route table. Constructors only, no
 * container, and no config: every value comes from {@link ServiceSettings}.
 */
final class Wiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Wiring.class);

    private final OrderPublisher publisher;
    private final PeriodicReconcile periodic;
    private final ExpiryRunner expiry;
    private final ArchiveRunner archive;
    private final AutoCloseable resender;
    private final Routes routes;

    private Wiring(OrderPublisher publisher, PeriodicReconcile periodic, ExpiryRunner expiry, ArchiveRunner archive,
                   AutoCloseable resender, Routes routes) {
        this.publisher = publisher;
        this.resender = resender;
        this.periodic = periodic;
        this.expiry = expiry;
        this.archive = archive;
        this.routes = routes;
    }

    static Wiring create(ServiceSettings settings, Credentials credentials, Clock clock, RedissonClient redis,
                         Admin kafkaAdmin, DataSource db) {
        TokenSigner signer = credentials.signer();
        JwksKeys jwks = credentials.jwks();
        if (jwks != null) {
            FunctionCounter.builder("seckill.jwks.fetches", jwks, JwksKeys::fetches).tag("outcome", "ok")
                    .description("fetches of the identity provider's JWKS").register(Metrics.globalRegistry);
            FunctionCounter.builder("seckill.jwks.fetches", jwks, JwksKeys::failures).tag("outcome", "failed")
                    .description("fetches of the identity provider's JWKS").register(Metrics.globalRegistry);
            // At start, so the first buyer waits for no fetch; a failure is logged and retried on demand.
            jwks.load();
        }
        credentials.tokens().bindTo(Metrics.globalRegistry);
        Authenticator auth = new Authenticator(credentials.tokens(), Metrics.globalRegistry);
        AdminAuth adminAuth = credentials.admin();
        if (!adminAuth.enabled()) {
            LOG.warn("no admin token configured (SECKILL_ADMIN_TOKEN): admin routes answer 401");
        }

        ScriptRunner scripts = new ScriptRunner(redis, RedisClients.commandLimit(settings.redis()));
        scripts.loadAll();
        SaleRepository saleRepository = new SaleRepository(db);
        Breakers breakers = Breakers.create(BreakerSettings.STANDARD, clock, Metrics.globalRegistry, ShardMap.of(redis));
        SaleCatalog catalog = new SaleCatalog(new GuardedSales(saleRepository, breakers.db()), clock);
        SaleStock stock = new SaleStock(redis, scripts);
        BuyerMarks buyerMarks = new BuyerMarks(redis);
        SaleViews views = new SaleViews(stock, clock);
        OrderRepository orderRepository = new OrderRepository(db);

        LimiterSettings limiter = settings.limiter();
        PurchaseMetrics metrics = new PurchaseMetrics(Metrics.globalRegistry);
        KafkaSettings kafka = settings.kafka();
        OrderPublisher publisher = OrderPublisher.create(kafka, breakers.kafka());
        publisher.warmUp(Duration.ofSeconds(10));
        RedisStockReserver reserver = new RedisStockReserver(scripts, limiter, settings.redis().replicaAcks(),
                settings.redis().coalesceMax(), metrics::batch);
        // An ended sale answers before any breaker; Kafka's breaker refuses before Redis takes a unit.
        StockReserver guarded = new EndedSales(new GuardedReserver(reserver, breakers.redis(), breakers.kafka()));
        // Behind no breaker: giving a unit back and recording a send's fate follow a reservation, so Redis answered
        // a moment ago.
        RedisUnitLedger ledger = new RedisUnitLedger(redis, scripts, settings.redis().replicaAcks());
        // One set of sold-out flags for the purchase path, reconcile and the expiry, which reopen a sale whose units came back.
        SoldOutFlags soldOut = new SoldOutFlags(clock, settings.soldOutTtlMs());
        Reopener reopener = new Reopener(soldOut, new EdgeFlags(settings.edgeAdmin(), Metrics.globalRegistry));
        UnsentSales unsentSales = new UnsentSales();
        OrderIds ids = new OrderIds(clock, nodeId(settings.node(), redis));
        Purchaser purchaser = new Purchaser(guarded, ledger, publisher, ids, soldOut, reopener, metrics, unsentSales,
                clock);
        AutoCloseable resender = startResender(settings.resend(),
                new Resender(unsentSales, ledger::unsentSends, catalog::find, ledger, publisher, clock,
                        settings.resend().after()));

        ConsumerLag lag = new ConsumerLag(kafkaAdmin, kafka.topic(), kafka.writerGroup());
        Reconciler reconciler = new Reconciler(saleRepository, stock, buyerMarks, orderRepository, ledger, reopener,
                lag, clock, kafka.deliveryTimeout());
        ReconcileSettings reconcile = settings.reconcile();
        PeriodicReconcile periodic = reconcile.periodic() ? PeriodicReconcile.start(reconciler, saleRepository, clock,
                reconcile.interval(), reconcile.grace()) : null;
        ExpiryRunner expiry = startExpiry(settings.expiry(), new LapsedOrderRepository(db), ledger, reopener::reopen);
        ArchivedMarks marks = new ArchivedMarks(buyerMarks::order, stock::archivedAt,
                (sale, user) -> breakers.db().call(() -> orderRepository.orderIdOf(sale, user)));
        OrderLookup lookup = new OrderLookup(new GuardedOrders(orderRepository, breakers.db()),
                new QueuedOrders(saleRepository, buyerMarks::order, clock), marks,
                new IssuableOrderIds(catalog, clock));
        ArchiveSettings archiving = settings.archive();
        ArchiveRunner archive = archiving.enabled() ? ArchiveRunner.start(
                new Archiver(saleRepository, stock, buyerMarks, orderRepository, clock, archiving),
                archiving.interval()) : null;
        Protection protection = protection(settings.protection(), settings.token().secret(), redis, clock);
        LineTickets tickets = credentials.lineTickets();
        Lines lines = new Lines(scripts, settings.line(),
                sale -> breakers.db().call(() -> orderRepository.countsForSale(sale).paid()), clock,
                Metrics.globalRegistry);
        Standings standings = new Standings(scripts, settings.line());
        Routes routes = new Routes(
                new SaleService(saleRepository, catalog, views, clock),
                new PurchaseService(auth, catalog, purchaser, metrics, limiter, protection,
                        new LineAdmission(lines, tickets, standings, clock)),
                new OrderService(auth, catalog, lookup,
                        new Payer(lookup, new PaymentRepository(db), new LocalPaymentProvider(), clock), clock),
                new AdminService(adminAuth, saleRepository, catalog, stock, views,
                        new SaleAudit(saleRepository, stock, buyerMarks, ledger, orderRepository, lag), reconciler,
                        reconcile.grace()),
                new ProtectionService(auth, catalog, protection),
                settings.demoLogin() ? new LoginService(signer) : null,
                breakers::open,
                new LineService(auth, catalog, lines, tickets, standings, clock),
                new LineAdminService(adminAuth, catalog, lines, clock));
        return new Wiring(publisher, periodic, expiry, archive, resender, routes);
    }

    /**
     * The protection of protected sales from {@code seckill.protection.*}. Its keys are derived from the token secret
     * (already checked by {@link Credentials}), one per purpose, so there is no new secret to configure.
     */
    private static Protection protection(ProtectionSettings settings, String tokenSecret, RedissonClient redis,
                                         Clock clock) {
        return new Protection(new Challenges(tokenSecret, settings.challengeTtl(), clock),
                new PurchasePaths(tokenSecret, settings.pathTtl(), clock), new RedisUsedChallenges(redis, clock),
                clock);
    }

    /**
     * The expiry of unpaid orders, every {@code seckill.expiry.interval-ms} (0 turns it off on this instance), in
     * batches of {@code seckill.expiry.batch} orders per transaction.
     */
    private static ExpiryRunner startExpiry(ExpirySettings settings, LapsedOrderRepository orders,
                                            RedisUnitLedger ledger, Expiry.Reopener reopener) {
        if (!settings.enabled()) {
            LOG.warn("expiry is off on this instance (seckill.expiry.interval-ms = 0)");
            return null;
        }
        ExpiryMetrics metrics = new ExpiryMetrics(Metrics.globalRegistry);
        return ExpiryRunner.start(new Expiry(orders, ledger::release, reopener, metrics, settings.batch()), metrics,
                settings.interval());
    }

    /**
     * Resends failed sends every {@code seckill.resend.interval-ms} (0 turns it off on this instance: then only
     * buyers' retries and reconcile settle them).
     */
    private static AutoCloseable startResender(ResendSettings settings, Resender resender) {
        if (!settings.enabled()) {
            LOG.warn("the resender is off on this instance (seckill.resend.interval-ms = 0)");
            return () -> { };
        }
        return resender.start(settings.interval());
    }

    Routes routes() {
        return routes;
    }

    /**
     * This instance's order-id node number: {@code seckill.node} when set, else the next value of a Redis counter
     * (distinct across live instances), else random when Redis is down at start (logged: ids could then collide
     * with another instance's only if both drew the same number).
     */
    private static long nodeId(OptionalLong configured, RedissonClient redis) {
        if (configured.isPresent()) {
            return configured.getAsLong() % (1L << OrderIds.NODE_BITS);
        }
        try {
            return Math.floorMod(redis.getAtomicLong(Keys.nodeSequence()).incrementAndGet(), 1L << OrderIds.NODE_BITS);
        } catch (RuntimeException e) {
            long n = ThreadLocalRandom.current().nextLong(1L << OrderIds.NODE_BITS);
            LOG.warn("failed to draw a node number from Redis, using random " + n + ": " + e.getMessage());
            return n;
        }
    }

    @Override
    public void close() {
        try {
            resender.close();
        } catch (Exception e) {
            LOG.warn("failed to stop the resender: " + e.getMessage());
        }
        if (periodic != null) {
            periodic.close();
        }
        if (expiry != null) {
            expiry.close();
        }
        if (archive != null) {
            archive.close();
        }
        publisher.close();
    }
}
