package dev.seckill.line;

import dev.seckill.http.Answers;
import dev.seckill.http.Ids;
import dev.seckill.http.SharedAnswer;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.Verification;
import dev.seckill.identity.User;
import dev.seckill.purchase.PurchaseService;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A sale's waiting room (docs/waiting-room.md): {@code POST /api/sales/{id}/line} joins it (signed in),
 * {@code GET /api/sales/{id}/line} with {@code X-Line-Ticket} says where the holder stands (the edge answers these
 * itself; this one answers the same for a client that reaches the service), and
 * {@code GET /api/sales/{id}/line/progress} is what each edge learns the line from once per interval (the edge does
 * not route it: it is not a public route).
 */
public final class LineService implements HttpService {

    public static final HeaderName TICKET = HeaderNames.create("X-Line-Ticket");

    private final Authenticator auth;
    private final SaleCatalog catalog;
    private final Lines lines;
    private final LineTickets tickets;
    private final Standings standings;
    private final Clock clock;

    public LineService(Authenticator auth, SaleCatalog catalog, Lines lines, LineTickets tickets, Standings standings,
                       Clock clock) {
        this.auth = auth;
        this.catalog = catalog;
        this.lines = lines;
        this.tickets = tickets;
        this.standings = standings;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/{id}/line", this::join)
                .get("/{id}/line", this::poll)
                .get("/{id}/line/progress", this::progress);
    }

    private void join(ServerRequest req, ServerResponse res) {
        Verification who = auth.verify(req);
        if (who instanceof Verification.Refused refused) {
            Answers.unauthenticated(req, res, refused.reason());
            return;
        }
        Optional<User> user = who.signedIn();
        Optional<Sale> sale = sale(req, res);
        if (sale.isEmpty()) {
            return;
        }
        Sale s = sale.get();
        Instant now = clock.instant();
        Instant opensAt = s.waitingRoom().opensAt(s.startsAt());
        if (now.isBefore(opensAt)) {
            long seconds = Math.max(1, (opensAt.toEpochMilli() - now.toEpochMilli() + 999) / 1000);
            res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
            Answers.json(res, Status.CONFLICT_409, Answers.body("code", "NOT_STARTED", "saleId", s.id(),
                    "startsAt", s.startsAt().toString(), "opensAt", opensAt.toString(), "retryAfter", seconds,
                    "message", "the line has not opened"));
            return;
        }
        if (!now.isBefore(s.endsAt())) {
            answer(res, s, new Standing.Ended(), null);
            return;
        }
        Lines.Joined j = lines.join(s, user.get().id(), now.isBefore(s.startsAt()));
        if (j.orderId() != null) {
            PurchaseService.alreadyPurchased(res, s.id(), j.orderId());
            return;
        }
        LineTicket t = new LineTicket(s.id(), user.get().id(), j.prequeue(), j.value(), s.endsAt().getEpochSecond());
        LineProgress p = lines.progress(s);
        Long exact = j.prequeue() ? (j.rank() >= 0 && p.drawn() ? j.rank() + 1 : null) : null;
        answer(res, s, standings.of(s, p, t, now, exact), tickets.sign(t));
    }

    private void poll(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = sale(req, res);
        if (sale.isEmpty()) {
            return;
        }
        Sale s = sale.get();
        String raw = req.headers().first(TICKET).orElse(null);
        LineTickets.Checked c = tickets.check(raw, s.id());
        if (c.refusal() != null) {
            refuse(req, res, c.refusal());
            return;
        }
        answer(res, s, standings.of(s, lines.progress(s), c.ticket(), clock.instant()), raw);
    }

    private void progress(ServerRequest req, ServerResponse res) {
        Optional<Sale> sale = sale(req, res);
        if (sale.isEmpty()) {
            return;
        }
        Sale s = sale.get();
        Answers.json(res, Status.OK_200, PublishedProgress.of(s, lines.progress(s), lines.settings()));
    }

    private Optional<Sale> sale(ServerRequest req, ServerResponse res) {
        return lineSale(catalog, req, res);
    }

    /** The sale of the path when it exists and has a line; otherwise answers (404, 409 NO_LINE) and returns empty. */
    static Optional<Sale> lineSale(SaleCatalog catalog, ServerRequest req, ServerResponse res) {
        OptionalLong id = Ids.param(req, "id");
        Optional<Sale> sale = id.isEmpty() ? Optional.empty() : catalog.find(id.getAsLong());
        if (sale.isEmpty()) {
            Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND);
            return Optional.empty();
        }
        if (sale.get().waitingRoom() == null) {
            Answers.error(req, res, Status.CONFLICT_409, "NO_LINE",
                    "this sale has no waiting room: purchase it directly");
            return Optional.empty();
        }
        return sale;
    }

    static void refuse(ServerRequest req, ServerResponse res, LineTickets.Refusal refusal) {
        Answers.error(req, res, PurchaseService.ticketRefusal(refusal.name()));
    }

    /** The one switch from a standing to its answer; {@code ticket}: the holder's signed ticket. */
    static void answer(ServerResponse res, Sale s, Standing standing, String ticket) {
        switch (standing) {
            case Standing.InLine l -> {
                Map<String, Object> body = Answers.body("code", "IN_LINE", "saleId", s.id(),
                        "position", l.position(), "ahead", l.ahead(), "etaSeconds", l.etaSeconds(),
                        "refreshSeconds", l.refreshSeconds(), "approximate", l.approximate(), "ticket", ticket);
                if (l.drawAt() != null) {
                    body.put("drawAt", l.drawAt().toString());
                }
                Answers.json(res, Status.OK_200, body);
            }
            case Standing.Waitlist w -> Answers.json(res, Status.OK_200, Answers.body("code", "WAITLIST",
                    "saleId", s.id(), "position", w.position(), "ahead", w.ahead(), "returning", w.returning(),
                    "returnBy", w.returnBy().toString(), "refreshSeconds", w.refreshSeconds(),
                    "approximate", w.approximate(), "ticket", ticket));
            case Standing.Admitted a -> Answers.json(res, Status.OK_200, Answers.body("code", "ADMITTED",
                    "saleId", s.id(), "admittedUntil", a.until().toString(), "ticket", ticket));
            case Standing.Lapsed l -> Answers.json(res, SharedAnswer.ADMISSION_LAPSED.status(), Answers.body("code",
                    SharedAnswer.ADMISSION_LAPSED.code(), "saleId", s.id(), "message",
                    SharedAnswer.ADMISSION_LAPSED.message()));
            case Standing.SoldOut so -> {
                res.header(PurchaseService.SOLD_OUT_HEADER, "1");
                Answers.json(res, Status.GONE_410, PurchaseService.soldOutBody(s.id()));
            }
            case Standing.Ended e -> Answers.json(res, Status.GONE_410, PurchaseService.saleEndedBody(s.id()));
        }
    }
}
