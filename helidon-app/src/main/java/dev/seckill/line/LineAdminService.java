package dev.seckill.line;

import dev.seckill.admin.AdminAuth;
import dev.seckill.http.Answers;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.time.Clock;
import java.util.Optional;

/**
 * {@code GET /admin/sales/{id}/line} (admin listener, admin token): a line's length, how many it admitted and how
 * many of those bought or let their turn lapse, the admission rate now, and what is left to sell or to come back.
 */
public final class LineAdminService implements HttpService {

    private final AdminAuth auth;
    private final SaleCatalog catalog;
    private final Lines lines;
    private final Clock clock;

    public LineAdminService(AdminAuth auth, SaleCatalog catalog, Lines lines, Clock clock) {
        this.auth = auth;
        this.catalog = catalog;
        this.lines = lines;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/sales/{id}/line", this::line);
    }

    private void line(ServerRequest req, ServerResponse res) {
        if (!auth.allows(req)) {
            Answers.error(req, res, Status.UNAUTHORIZED_401, "UNAUTHENTICATED", "admin token required");
            return;
        }
        Optional<Sale> sale = LineService.lineSale(catalog, req, res);
        if (sale.isEmpty()) {
            return;
        }
        Sale s = sale.get();
        LineProgress p = lines.progress(s);
        WaitingRoom room = s.waitingRoom();
        Answers.json(res, Status.OK_200, Answers.body("saleId", s.id(), "length", p.total(),
                "prequeue", p.prequeue(), "joinedAfter", p.joinedAfter(), "drawn", p.drawn(),
                "admitted", p.admitted(), "used", p.used(), "lapsed", p.lapsed(),
                "admitPerSecond", p.rate(clock.millis()),
                "mode", room.admitPerSecond() == null ? "follow" : "fixed",
                "window", lines.settings().window(), "remaining", p.remaining(), "mayReturn", p.mayReturn()));
    }
}
