package dev.seckill.order;

import dev.seckill.http.Answers;
import dev.seckill.http.Ids;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code GET /api/orders/{orderId}}: CONFIRMED when the writer has written it, QUEUED while it is reserved in
 * Redis but not yet in the database. Only its owner may read it; anybody else gets 404, as if it did not exist.
 */
public final class OrderService implements HttpService {

    private final Authenticator auth;
    private final OrderSource orders;
    private final QueuedOrders queued;

    public OrderService(Authenticator auth, OrderSource orders, QueuedOrders queued) {
        this.auth = auth;
        this.orders = orders;
        this.queued = queued;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{orderId}", this::status);
    }

    private void status(ServerRequest req, ServerResponse res) {
        OptionalLong id = Ids.param(req, "orderId");
        if (id.isEmpty()) {
            notFound(req, res);
            return;
        }
        long orderId = id.getAsLong();
        Optional<User> user = auth.user(req);
        if (user.isEmpty()) {
            Answers.error(req, res, Status.UNAUTHORIZED_401, "UNAUTHENTICATED",
                    "a valid Authorization: Bearer token is required");
            return;
        }
        long userId = user.get().id();
        Optional<WrittenOrder> written = orders.find(orderId).filter(r -> r.userId() == userId);
        if (written.isPresent()) {
            Answers.json(res, Status.OK_200, body(orderId, "CONFIRMED", written.get().saleId(), userId));
            return;
        }
        Optional<Sale> queuedIn = queued.saleOf(orderId, userId);
        if (queuedIn.isPresent()) {
            Answers.json(res, Status.OK_200, body(orderId, "QUEUED", queuedIn.get().id(), userId));
            return;
        }
        notFound(req, res);
    }

    private static void notFound(ServerRequest req, ServerResponse res) {
        Answers.error(req, res, Status.NOT_FOUND_404, "ORDER_NOT_FOUND", "no such order");
    }

    private static Object body(long orderId, String status, long saleId, long userId) {
        return Answers.body("code", status, "orderId", Long.toString(orderId), "status", status, "saleId", saleId,
                "userId", userId);
    }
}
