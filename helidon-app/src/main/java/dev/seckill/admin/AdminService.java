package dev.seckill.admin;

import dev.seckill.http.Answers;
import dev.seckill.http.SharedAnswer;
import dev.seckill.http.Ids;
import dev.seckill.failure.InvalidInput;
import dev.seckill.http.JsonBody;
import dev.seckill.sale.NewSale;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.SaleViews;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Operator routes, all behind the admin token: {@code POST /admin/sales} creates a sale in the database and preheats
 * Redis; {@code GET /admin/sales/{id}/stats} shows the consistency view of docs/contract.md;
 * {@code POST /admin/sales/{id}/reconcile} repairs it. Reports are rendered to JSON here, nowhere else.
 */
public final class AdminService implements HttpService {

    private static final int MAX_BODY = 4096;
    /** Disagreements listed in a stats answer: enough to see the kind of damage, bounded for a broken big sale. */
    private static final int LISTED = 20;

    private final AdminAuth auth;
    private final SaleRepository sales;
    private final SaleCatalog catalog;
    private final SaleStock stock;
    private final SaleViews views;
    private final SaleAudit audit;
    private final Reconciler reconciler;
    private final Duration defaultGrace;

    public AdminService(AdminAuth auth, SaleRepository sales, SaleCatalog catalog, SaleStock stock, SaleViews views,
                        SaleAudit audit, Reconciler reconciler, Duration defaultGrace) {
        this.auth = auth;
        this.sales = sales;
        this.catalog = catalog;
        this.stock = stock;
        this.views = views;
        this.audit = audit;
        this.reconciler = reconciler;
        this.defaultGrace = defaultGrace;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/sales", guarded(this::create))
                .get("/sales/{id}/stats", guarded(this::stats))
                .post("/sales/{id}/reconcile", guarded(this::reconcile));
    }

    private Handler guarded(Handler h) {
        return (req, res) -> {
            if (!auth.allows(req)) {
                Answers.error(req, res, Status.UNAUTHORIZED_401, "UNAUTHENTICATED", "admin token required");
                return;
            }
            h.handle(req, res);
        };
    }

    private void create(ServerRequest req, ServerResponse res) {
        NewSale n = NewSale.from(JsonBody.read(req, MAX_BODY));
        Sale sale = sales.insert(n);
        catalog.remember(sale);
        stock.preheat(sale, sale.stockTotal());
        res.header(HeaderNames.LOCATION, "/api/sales/" + sale.id());
        Answers.json(res, Status.CREATED_201, views.view(sale));
    }

    private void stats(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = sale(req, res);
        if (sale.isPresent()) {
            Answers.json(res, Status.OK_200, json(audit.stats(sale.get())));
        }
    }

    /**
     * {@code POST /admin/sales/{id}/reconcile[?dryRun=true][&graceSeconds=N]}: 200 with the report of what was
     * repaired (or would be), or 409 {@code WRITER_BEHIND} when the writer has not caught up (nothing done).
     */
    private void reconcile(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = sale(req, res);
        if (sale.isEmpty()) {
            return;
        }
        boolean dryRun = req.query().first("dryRun").map(Boolean::parseBoolean).orElse(false);
        Reconciler.Report report = reconciler.reconcile(sale.get(), dryRun, grace(req));
        Answers.json(res, report.writerBehind() ? Status.CONFLICT_409 : Status.OK_200, json(report));
    }

    /** The sale a route names, or empty after answering 404. */
    private Optional<Sale> sale(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = Ids.param(req, "id").stream().boxed()
                .flatMap(id -> catalog.find(id).stream()).findFirst();
        if (sale.isEmpty()) {
            Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND);
        }
        return sale;
    }

    /** {@code graceSeconds}, never shorter than the time an event handed to Kafka may take to land. */
    private Duration grace(ServerRequest req) {
        Optional<String> g = req.query().first("graceSeconds").asOptional();
        if (g.isEmpty()) {
            return defaultGrace;
        }
        long least = (reconciler.minGrace().toMillis() + 999) / 1000;
        OptionalLong seconds = Ids.parse(g.get());
        if (seconds.isEmpty() || seconds.getAsLong() < least) {
            throw new InvalidInput("graceSeconds", "graceSeconds must be a whole number of seconds, at least " + least
                    + " (longer than the producer's delivery timeout)");
        }
        return Duration.ofSeconds(seconds.getAsLong());
    }

    /**
     * The stats body; {@code consistent} is the conservation invariant judged as sets, once the writer caught up, and
     * {@code disagreements} names what breaks it (the first {@value #LISTED}; {@code disagreementCount} counts all).
     */
    static Map<String, Object> json(SaleStats s) {
        List<Disagreement> all = s.disagreements();
        List<Map<String, Object>> listed = all.stream().limit(LISTED)
                .map(d -> Answers.body("kind", d.kind().name(), "userId", d.userId(),
                        "orderId", d.orderId() == null ? null : Long.toString(d.orderId()), "detail", d.detail()))
                .toList();
        return Answers.body("saleId", s.saleId(), "stockTotal", s.stockTotal(), "dbStock", s.dbStock(),
                "redisRemaining", s.redisRemaining(), "redisBuyers", s.redisBuyers(),
                "redisReturned", s.redisReturned(), "dbOrders", s.orders().total(),
                "dbConfirmed", s.orders().confirmed(), "dbPaid", s.orders().paid(), "dbExpired", s.orders().expired(),
                "unitsOwed", s.unitsOwed(), "consumerLag", s.consumerLag(), "archived", s.archived(),
                "consistent", all.isEmpty(), "disagreementCount", all.size(), "disagreements", listed);
    }

    static Map<String, Object> json(Reconciler.Report r) {
        List<Map<String, Object>> actions = r.actions().stream()
                .map(a -> Answers.body("action", a.kind().name(), "userId", a.userId(), "orderId", a.orderId(),
                        "detail", a.detail()))
                .toList();
        String code = r.writerBehind() ? "WRITER_BEHIND" : r.archived() ? "ARCHIVED" : "RECONCILED";
        return Answers.body("code", code, "saleId", r.saleId(),
                "dryRun", r.dryRun(), "writerLag", r.writerLag(), "pendingBuyers", r.pendingBuyers(),
                "actions", actions);
    }
}
