package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.InvalidInput;
import dev.seckill.http.Answers;
import dev.seckill.http.SharedAnswer;
import dev.seckill.http.Deadline;
import dev.seckill.http.Ids;
import dev.seckill.http.JsonBody;
import dev.seckill.http.RequestIds;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.Verification;
import dev.seckill.identity.User;
import dev.seckill.protection.Protection;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code POST /api/sales/{id}/purchase}, and {@code POST /api/sales/{id}/purchase/{path}} for protected sales:
 * answers exactly as the contract tables of docs/contract.md.
 */
public final class PurchaseService implements HttpService {

    /** Tells the edge to set its sold-out flag for the sale (read in header_filter_by_lua). */
    public static final HeaderName SOLD_OUT_HEADER = HeaderNames.create("X-Seckill-Sold-Out");
    /**
     * The order id of a QUEUED or ALREADY_PURCHASED answer, as a header too: the edge's purchase log reads it there
     * ($upstream_http_x_order_id) without parsing the body.
     */
    public static final HeaderName ORDER_ID_HEADER = HeaderNames.create("X-Order-Id");
    /** A waiting-room sale's ticket (docs/waiting-room.md). */
    public static final HeaderName TICKET = HeaderNames.create("X-Line-Ticket");
    static final HeaderName LIMIT = HeaderNames.create("X-RateLimit-Limit");
    static final HeaderName REMAINING = HeaderNames.create("X-RateLimit-Remaining");
    static final HeaderName RESET = HeaderNames.create("X-RateLimit-Reset");
    private static final int MAX_BODY = 1024;
    /** The code of a ticket past its expiry; any other refused ticket is TICKET_INVALID. */
    public static final String TICKET_EXPIRED = "TICKET_EXPIRED";
    public static final String TICKET_INVALID = "TICKET_INVALID";

    private final Authenticator auth;
    private final SaleCatalog catalog;
    private final Purchaser purchaser;
    private final PurchaseMetrics metrics;
    private final LimiterSettings limiter;
    private final Protection protection;
    private final Admission admission;

    public PurchaseService(Authenticator auth, SaleCatalog catalog, Purchaser purchaser, PurchaseMetrics metrics,
                           LimiterSettings limiter, Protection protection, Admission admission) {
        this.auth = auth;
        this.catalog = catalog;
        this.purchaser = purchaser;
        this.metrics = metrics;
        this.limiter = limiter;
        this.protection = protection;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/{id}/purchase", this::purchase)
                .post("/{id}/purchase/{path}", this::purchase);
    }

    private void purchase(ServerRequest req, ServerResponse res) {
        OptionalLong saleId = Ids.param(req, "id");
        PurchaseOutcome outcome;
        if (saleId.isEmpty()) {
            outcome = new PurchaseOutcome.SaleNotFound();
        } else {
            checkBody(req);
            outcome = attempt(req, saleId.getAsLong());
        }
        metrics.answered(outcome);
        // An id that does not parse only ever gets SaleNotFound, whose answer names no id.
        answer(req, res, saleId.orElse(0), outcome);
    }

    private PurchaseOutcome attempt(ServerRequest req, long saleId) {
        Verification who = auth.verify(req);
        if (who instanceof Verification.Refused refused) {
            return new PurchaseOutcome.Unauthenticated(refused.reason());
        }
        Optional<User> user = who.signedIn();
        Optional<Sale> sale = catalog.find(saleId);
        if (sale.isEmpty()) {
            return new PurchaseOutcome.SaleNotFound();
        }
        // Decided here, before Redis: a flood of forged tickets or paths costs one HMAC each.
        PurchaseOutcome refused = admission.refusal(sale.get(), user.get().id(),
                req.headers().first(TICKET).orElse(null));
        if (refused != null) {
            return refused;
        }
        switch (protection.purchase(sale.get(), user.get().id(), req.path().pathParameters().first("path").orElse(null))) {
            case REQUIRED -> {
                return new PurchaseOutcome.PathRequired();
            }
            case INVALID -> {
                return new PurchaseOutcome.PathInvalid();
            }
            case PASS -> { }
        }
        metrics.inFlight().incrementAndGet();
        try {
            Deadline deadline = Deadline.of(req);
            String requestId = RequestIds.of(req);
            return deadline.await("purchase of sale " + saleId + " (request " + requestId + ")",
                    () -> purchaser.attempt(sale.get(), user.get(), requestId, deadline));
        } catch (DependencyUnavailable e) {
            metrics.unavailable();
            throw e;
        } finally {
            metrics.inFlight().decrementAndGet();
        }
    }

    /** The purchase needs no body; one that is sent must be a JSON object whose quantity, if any, is 1. */
    private static void checkBody(ServerRequest req) {
        JsonNode body = JsonBody.read(req, MAX_BODY);
        JsonNode q = body == null ? null : body.get("quantity");
        if (q != null && !(q.isIntegralNumber() && q.asLong() == 1)) {
            throw new InvalidInput("quantity", "quantity must be 1: one unit per user");
        }
    }

    /** The one switch from outcome to status, headers and body. */
    private void answer(ServerRequest req, ServerResponse res, long saleId, PurchaseOutcome outcome) {
        switch (outcome) {
            case PurchaseOutcome.Queued q -> {
                res.header(HeaderNames.LOCATION, "/api/orders/" + q.orderId());
                res.header(ORDER_ID_HEADER, q.orderId());
                Answers.json(res, Status.ACCEPTED_202, Answers.body("code", "QUEUED", "orderId", q.orderId(),
                        "saleId", saleId, "message", "your order is queued"));
            }
            case PurchaseOutcome.AlreadyPurchased a -> alreadyPurchased(res, saleId, a.orderId());
            case PurchaseOutcome.SoldOut s -> {
                res.header(SOLD_OUT_HEADER, "1");
                Answers.json(res, Status.GONE_410, soldOutBody(saleId));
            }
            case PurchaseOutcome.SaleEnded e -> Answers.json(res, Status.GONE_410, saleEndedBody(saleId));
            case PurchaseOutcome.NotStarted n -> {
                long seconds = ceilSeconds(n.waitMillis());
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
                SharedAnswer a = SharedAnswer.NOT_STARTED;
                Answers.json(res, a.status(), Answers.body("code", a.code(), "saleId", saleId,
                        "startsAt", n.startsAt().toString(), "retryAfter", seconds, "message", a.message()));
            }
            case PurchaseOutcome.RateLimited r -> {
                long seconds = ceilSeconds(r.waitMillis());
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
                res.header(LIMIT, Integer.toString(limiter.burst()));
                res.header(REMAINING, "0");
                res.header(RESET, Long.toString(seconds));
                Answers.json(res, Status.TOO_MANY_REQUESTS_429, Answers.body("code", "RATE_LIMITED",
                        "retryAfter", seconds, "message", "too many attempts; retry after " + seconds + " s"));
            }
            case PurchaseOutcome.SaleNotFound n ->
                    Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND);
            case PurchaseOutcome.Unauthenticated u -> Answers.unauthenticated(req, res, u.reason());
            case PurchaseOutcome.PathRequired r -> Answers.error(req, res, Status.FORBIDDEN_403, "PATH_REQUIRED",
                    "this sale is bought through a purchase path: POST /api/sales/" + saleId + "/path first");
            case PurchaseOutcome.PathInvalid i -> Answers.error(req, res, Status.FORBIDDEN_403, "PATH_INVALID",
                    "this purchase link is not valid for you, or has expired; get a new one");
            case PurchaseOutcome.TicketRefused t -> Answers.error(req, res, ticketRefusal(t.code()));
            case PurchaseOutcome.NotAdmitted n -> {
                long seconds = ceilSeconds(n.waitMillis());
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
                SharedAnswer a = SharedAnswer.NOT_ADMITTED;
                Answers.json(res, a.status(), Answers.body("code", a.code(), "saleId", saleId,
                        "position", n.position(), "ahead", n.ahead(), "retryAfter", seconds, "message", a.message()));
            }
        }
    }

    /** The 403 of a refused line ticket ({@code TICKET_EXPIRED} or {@code TICKET_INVALID}), as the edge answers it. */
    public static SharedAnswer ticketRefusal(String code) {
        return code.equals(TICKET_EXPIRED) ? SharedAnswer.TICKET_EXPIRED : SharedAnswer.TICKET_INVALID;
    }

    /** The SOLD_OUT body; the edge answers the very same one from its flag. */
    public static Map<String, Object> soldOutBody(long saleId) {
        SharedAnswer a = SharedAnswer.SOLD_OUT;
        return Answers.body("code", a.code(), "message", a.message(), "saleId", saleId);
    }

    /** 409 ALREADY_PURCHASED naming the buyer's order: a purchase's answer, and a join's of a buyer who holds one. */
    public static void alreadyPurchased(ServerResponse res, long saleId, String orderId) {
        res.header(ORDER_ID_HEADER, orderId);
        Answers.json(res, Status.CONFLICT_409, Answers.body("code", "ALREADY_PURCHASED", "orderId", orderId,
                "saleId", saleId, "message", "you already bought this sale"));
    }

    /** The SALE_ENDED body; the edge answers the very same one from its flag. */
    public static Map<String, Object> saleEndedBody(long saleId) {
        SharedAnswer a = SharedAnswer.SALE_ENDED;
        return Answers.body("code", a.code(), "saleId", saleId, "message", a.message());
    }

    private static long ceilSeconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }
}
