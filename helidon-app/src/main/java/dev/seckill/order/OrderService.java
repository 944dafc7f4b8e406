package dev.seckill.order;

import dev.seckill.http.Answers;
import dev.seckill.http.SharedAnswer;
import dev.seckill.http.Deadline;
import dev.seckill.http.Ids;
import dev.seckill.http.RequestIds;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.Verification;
import dev.seckill.identity.User;
import dev.seckill.sale.SaleCatalog;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * A shopper's orders (docs/contract.md, orders), mounted under {@code /api}:
 * <ul>
 *   <li>{@code GET /api/orders/{orderId}}: QUEUED, CONFIRMED, PAID or EXPIRED, with payBy once written;</li>
 *   <li>{@code POST /api/orders/{orderId}/pay} with an {@code Idempotency-Key}: 200 PAID (a repeat answers the
 *   same), 409 ORDER_NOT_CONFIRMED while QUEUED, 410 ORDER_EXPIRED after payBy;</li>
 *   <li>{@code GET /api/sales/{id}/order}: the caller's order in that sale, or 404 NO_ORDER.</li>
 * </ul>
 * Only the owner sees an order; anybody else gets 404, as if it did not exist.
 */
public final class OrderService implements HttpService {

    /** Seconds a client should wait before paying a QUEUED order again (the writer confirms within moments). */
    static final int NOT_CONFIRMED_RETRY_AFTER = 1;

    private final Authenticator auth;
    private final SaleCatalog catalog;
    private final OrderLookup orders;
    private final Payer payer;
    private final Clock clock;

    public OrderService(Authenticator auth, SaleCatalog catalog, OrderLookup orders, Payer payer, Clock clock) {
        this.auth = auth;
        this.catalog = catalog;
        this.orders = orders;
        this.payer = payer;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/orders/{orderId}", this::status)
                .post("/orders/{orderId}/pay", this::pay)
                .get("/sales/{id}/order", this::mine);
    }

    private void status(ServerRequest req, ServerResponse res) {
        Optional<Asked> asked = asked(req, res, "orderId", OrderService::orderNotFound);
        if (asked.isEmpty()) {
            return;
        }
        Deadline.of(req).await("status read of order " + asked.get().id(),
                () -> orders.byId(asked.get().id(), asked.get().user().id())).ifPresentOrElse(
                o -> Answers.json(res, Status.OK_200, view(o, true)),
                () -> orderNotFound(req, res));
    }

    private void pay(ServerRequest req, ServerResponse res) {
        Optional<Asked> asked = asked(req, res, "orderId", OrderService::orderNotFound);
        if (asked.isEmpty()) {
            return;
        }
        long orderId = asked.get().id();
        String key = IdempotencyKey.of(req);
        String requestId = RequestIds.of(req);
        switch (Deadline.of(req).await("payment of order " + orderId + " (request " + requestId + ")",
                () -> payer.pay(orderId, asked.get().user().id(), key, requestId))) {
            case PayOutcome.Paid p -> {
                Map<String, Object> body = view(p.order(), false);
                body.put("paymentReference", p.payment().reference());
                Answers.json(res, Status.OK_200, body);
            }
            case PayOutcome.NotConfirmed n -> {
                res.header(HeaderNames.RETRY_AFTER, Integer.toString(NOT_CONFIRMED_RETRY_AFTER));
                Answers.json(res, Status.CONFLICT_409, Answers.error(req, "ORDER_NOT_CONFIRMED",
                        "the order is still being recorded; pay again shortly", "orderId", Long.toString(orderId)));
            }
            case PayOutcome.Expired e -> Answers.json(res, Status.GONE_410, Answers.error(req, "ORDER_EXPIRED",
                    "the payment window has passed; the unit went back on sale", "orderId", Long.toString(orderId)));
            case PayOutcome.Declined d -> Answers.json(res, Status.PAYMENT_REQUIRED_402, Answers.error(req,
                    "PAYMENT_DECLINED", "the payment was declined; the order can still be paid before payBy",
                    "orderId", Long.toString(orderId)));
            case PayOutcome.NotFound n -> orderNotFound(req, res);
        }
    }

    private void mine(ServerRequest req, ServerResponse res) {
        Optional<Asked> asked = asked(req, res, "id", OrderService::saleNotFound);
        if (asked.isEmpty()) {
            return;
        }
        long saleId = asked.get().id();
        long userId = asked.get().user().id();
        Optional<Optional<Order>> found = Deadline.of(req).await("order read of sale " + saleId,
                () -> catalog.find(saleId).map(sale -> orders.inSale(sale, userId)));
        if (found.isEmpty()) {
            saleNotFound(req, res);
            return;
        }
        found.get().ifPresentOrElse(
                o -> Answers.json(res, Status.OK_200, view(o, true)),
                () -> Answers.json(res, Status.NOT_FOUND_404, Answers.error(req, "NO_ORDER",
                        "you have no order in this sale", "saleId", saleId)));
    }

    /** The id a request names and its signed-in caller. */
    private record Asked(long id, User user) {
    }

    /** The path's id and the caller, or empty after answering: {@code notFound} for a bad id, then 401. */
    private Optional<Asked> asked(ServerRequest req, ServerResponse res, String param,
                                  BiConsumer<ServerRequest, ServerResponse> notFound) {
        OptionalLong id = Ids.param(req, param);
        if (id.isEmpty()) {
            notFound.accept(req, res);
            return Optional.empty();
        }
        Verification who = auth.verify(req);
        if (who instanceof Verification.Refused refused) {
            Answers.unauthenticated(req, res, refused.reason());
        }
        return who.signedIn().map(u -> new Asked(id.getAsLong(), u));
    }

    private static void orderNotFound(ServerRequest req, ServerResponse res) {
        Answers.error(req, res, SharedAnswer.ORDER_NOT_FOUND);
    }

    private static void saleNotFound(ServerRequest req, ServerResponse res) {
        Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND);
    }

    /**
     * An order as its owner sees it: with the server's time for the countdown to payBy, or without it (the pay
     * answer), so that the body depends on the stored order alone and a repeated pay answers byte for byte the same.
     */
    private Map<String, Object> view(Order o, boolean withServerTime) {
        Map<String, Object> body = Answers.body("code", o.state().name(), "orderId", Long.toString(o.orderId()),
                "status", o.state().name(), "saleId", o.saleId(), "userId", o.userId(),
                "payBy", o.payBy() == null ? null : o.payBy().toString(),
                "paidAt", o.paidAt() == null ? null : o.paidAt().toString());
        if (withServerTime) {
            body.put("serverTime", clock.instant().toString());
        }
        return body;
    }
}
