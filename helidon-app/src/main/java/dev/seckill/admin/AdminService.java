package dev.seckill.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.http.Answers;
import dev.seckill.http.BadRequest;
import dev.seckill.http.JsonBody;
import dev.seckill.order.OrderRepository;
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
import java.util.Map;
import java.util.Optional;

/**
 * Operator routes on the service's own port (the edge does not expose them), all behind the admin token:
 * {@code POST /admin/sales} creates a sale in MySQL and preheats Redis; {@code GET /admin/sales/{id}/stats}
 * shows the consistency view of DESIGN.md.
 */
public final class AdminService implements HttpService {

    private final AdminAuth auth;
    private final SaleRepository sales;
    private final SaleCatalog catalog;
    private final SaleStock stock;
    private final SaleViews views;
    private final OrderRepository orders;
    private final ConsumerLag lag;
    private final Reconciler reconciler;
    private final Duration defaultGrace;

    private static final int MAX_BODY = 4096;

    public AdminService(AdminAuth auth, SaleRepository sales, SaleCatalog catalog, SaleStock stock, SaleViews views,
                        OrderRepository orders, ConsumerLag lag, Reconciler reconciler, Duration defaultGrace) {
        this.auth = auth;
        this.sales = sales;
        this.catalog = catalog;
        this.stock = stock;
        this.views = views;
        this.orders = orders;
        this.lag = lag;
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
                Answers.error(res, Status.UNAUTHORIZED_401, "UNAUTHENTICATED", "admin token required");
                return;
            }
            h.handle(req, res);
        };
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonNode body = JsonBody.read(req, MAX_BODY);
        NewSale n = NewSale.from(body);
        Sale sale = sales.insert(n);
        catalog.remember(sale);
        stock.preheat(sale, sale.stockTotal());
        res.header(HeaderNames.LOCATION, "/api/sales/" + sale.id());
        Answers.json(res, Status.CREATED_201, views.view(sale));
    }

    private void stats(ServerRequest req, ServerResponse res) {
        long id = Answers.id(req.path().pathParameters().get("id"), "saleId");
        Optional<Sale> sale = catalog.find(id);
        if (sale.isEmpty()) {
            Answers.error(res, Status.NOT_FOUND_404, "SALE_NOT_FOUND", "no sale " + id);
            return;
        }
        Answers.json(res, Status.OK_200, stats(sale.get()));
    }

    /**
     * {@code POST /admin/sales/{id}/reconcile[?dryRun=true][&graceSeconds=N]}: 200 with the report of what was
     * repaired (or would be), or 409 {@code WRITER_BEHIND} when the writer has not caught up (nothing done).
     */
    private void reconcile(ServerRequest req, ServerResponse res) {
        long id = Answers.id(req.path().pathParameters().get("id"), "saleId");
        Optional<Sale> sale = catalog.find(id);
        if (sale.isEmpty()) {
            Answers.error(res, Status.NOT_FOUND_404, "SALE_NOT_FOUND", "no sale " + id);
            return;
        }
        boolean dryRun = req.query().first("dryRun").map(Boolean::parseBoolean).orElse(false);
        Duration grace = defaultGrace;
        Optional<String> g = req.query().first("graceSeconds").asOptional();
        if (g.isPresent()) {
            long seconds = Answers.id(g.get(), "graceSeconds");
            if (seconds < reconciler.minGrace().toSeconds()) {
                throw new BadRequest("graceSeconds", "graceSeconds must be at least " + reconciler.minGrace().toSeconds()
                        + " (longer than the producer's delivery timeout)");
            }
            grace = Duration.ofSeconds(seconds);
        }
        Reconciler.Report report = reconciler.reconcile(sale.get(), dryRun, grace);
        Answers.json(res, report.writerBehind() ? Status.CONFLICT_409 : Status.OK_200, report.json());
    }

    /** The consistency view; {@code consistent} is DESIGN.md's conservation invariant, once the writer caught up. */
    Map<String, Object> stats(Sale sale) {
        long dbStock = sales.dbStock(sale.id()).orElseThrow();
        Long remaining = stock.remaining(sale.id());
        long buyers = stock.buyers(sale.id());
        long dbOrders = orders.countForSale(sale.id());
        long consumerLag = lag.total();
        boolean consistent = consumerLag == 0 && remaining != null
                && sale.stockTotal() == remaining + dbOrders && buyers == dbOrders
                && dbStock == sale.stockTotal() - dbOrders;
        return Answers.body("saleId", sale.id(), "stockTotal", sale.stockTotal(), "dbStock", dbStock,
                "redisRemaining", remaining, "redisBuyers", buyers, "dbOrders", dbOrders, "consumerLag", consumerLag,
                "consistent", consistent);
    }
}
