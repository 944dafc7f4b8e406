package dev.seckill.order;

import dev.seckill.http.Answers;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.User;
import dev.seckill.redis.Keys;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code GET /api/orders/{orderId}}: CONFIRMED when the writer has written it, QUEUED while it is reserved in
 * Redis but not yet in the database. Only its owner may read it; anybody else gets 404, as if it did not exist.
 */
public final class OrderService implements HttpService {

    private final Authenticator auth;
    private final OrderRepository orders;
    private final SaleRepository sales;
    private final RedissonClient redis;
    private final Clock clock;

    public OrderService(Authenticator auth, OrderRepository orders, SaleRepository sales, RedissonClient redis,
                        Clock clock) {
        this.auth = auth;
        this.orders = orders;
        this.sales = sales;
        this.redis = redis;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{orderId}", this::status);
    }

    private void status(ServerRequest req, ServerResponse res) {
        long orderId = Answers.id(req.path().pathParameters().get("orderId"), "orderId");
        Optional<User> user = auth.user(req);
        if (user.isEmpty()) {
            Answers.error(res, Status.UNAUTHORIZED_401, "UNAUTHENTICATED", "a valid Authorization: Bearer token is required");
            return;
        }
        long userId = user.get().id();
        Optional<OrderRepository.Row> written = orders.find(orderId).filter(r -> r.userId() == userId);
        if (written.isPresent()) {
            OrderRepository.Row r = written.get();
            Answers.json(res, Status.OK_200, body(orderId, "CONFIRMED", r.saleId(), userId));
            return;
        }
        Optional<Sale> queuedIn = queuedIn(orderId, userId);
        if (queuedIn.isPresent()) {
            Answers.json(res, Status.OK_200, body(orderId, "QUEUED", queuedIn.get().id(), userId));
            return;
        }
        Answers.error(res, Status.NOT_FOUND_404, "ORDER_NOT_FOUND", "no order " + orderId);
    }

    /**
     * The sale in whose Redis buyers this user's order id is recorded, among sales that ended less than a day ago
     * (few sales run at once, and the writer confirms orders within seconds).
     */
    private Optional<Sale> queuedIn(long orderId, long userId) {
        String id = Long.toString(orderId);
        return sales.current(clock.instant().minus(Duration.ofDays(1))).stream()
                .filter(s -> id.equals(redis.getMap(Keys.buyers(s.id())).get(Long.toString(userId))))
                .findFirst();
    }

    private static Object body(long orderId, String status, long saleId, long userId) {
        return Answers.body("code", status, "orderId", Long.toString(orderId), "status", status, "saleId", saleId,
                "userId", userId);
    }
}
