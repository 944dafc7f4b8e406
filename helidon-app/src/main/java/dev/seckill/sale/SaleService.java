package dev.seckill.sale;

import dev.seckill.http.Answers;
import dev.seckill.http.SharedAnswer;
import dev.seckill.http.Ids;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** {@code GET /api/sales} (current sales) and {@code GET /api/sales/{id}}. The edge micro-caches both. */
public final class SaleService implements HttpService {

    private final SaleSource sales;
    private final SaleCatalog catalog;
    private final SaleViews views;
    private final Clock clock;

    public SaleService(SaleSource sales, SaleCatalog catalog, SaleViews views, Clock clock) {
        this.sales = sales;
        this.catalog = catalog;
        this.views = views;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list)
                .get("/{id}", this::one);
    }

    private void list(ServerRequest req, ServerResponse res) {
        List<Sale> current = sales.current(clock.instant());
        current.forEach(catalog::remember);
        List<SaleView> out = current.stream().map(views::view).toList();
        Answers.json(res, Status.OK_200, Answers.body("sales", out, "serverTime", clock.instant().toString()));
    }

    private void one(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = Ids.param(req, "id").stream().boxed()
                .flatMap(id -> catalog.find(id).stream()).findFirst();
        sale.ifPresentOrElse(
                s -> Answers.json(res, Status.OK_200, views.view(s)),
                () -> Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND));
    }
}
