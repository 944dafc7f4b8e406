package dev.seckill.order;

import dev.seckill.payment.Charge;
import dev.seckill.payment.ChargeRequest;
import dev.seckill.payment.PaymentProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;

/**
 * Pays an order, without HTTP: charge through the provider, then let the database decide (the order may have
 * lapsed, or another request of the same shopper may have paid it meanwhile), and refund a charge that lost. The
 * answers come from the stored state, so a repeat of a request answers as the first did.
 */
public final class Payer {

    private static final Logger LOG = LoggerFactory.getLogger(Payer.class);

    private final OrderLookup orders;
    private final PaymentStore payments;
    private final PaymentProvider provider;
    private final Clock clock;

    public Payer(OrderLookup orders, PaymentStore payments, PaymentProvider provider, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.provider = provider;
        this.clock = clock;
    }

    /** @param requestId the pay request's id, carried by the order's PAID event */
    public PayOutcome pay(long orderId, long userId, String idempotencyKey, String requestId) {
        Optional<Order> found = orders.byId(orderId, userId);
        if (found.isEmpty()) {
            return new PayOutcome.NotFound();
        }
        Order order = found.get();
        return switch (order.state()) {
            case QUEUED -> new PayOutcome.NotConfirmed();
            case PAID -> paid(order);
            case EXPIRED -> new PayOutcome.Expired();
            // Past payBy on this clock: the expiry will take it; no charge that would only be refunded. The
            // database's clock still decides every order that is charged.
            case CONFIRMED -> clock.instant().isAfter(order.payBy()) ? new PayOutcome.Expired()
                    : charge(order, idempotencyKey, requestId);
        };
    }

    private PayOutcome charge(Order order, String key, String requestId) {
        Charge charge = provider.charge(new ChargeRequest(order.orderId(), order.userId(), order.priceCents(), key));
        if (!(charge instanceof Charge.Approved approved)) {
            LOG.info("payment of order " + order.orderId() + " declined: "
                    + ((Charge.Declined) charge).reason());
            return new PayOutcome.Declined();
        }
        PaymentRecord mine = new PaymentRecord(key, provider.name(), approved.reference(), order.priceCents());
        boolean won = payments.recordPaid(order, mine, requestId);
        Order now = orders.byId(order.orderId(), order.userId()).orElseThrow(
                () -> new IllegalStateException("order " + order.orderId() + " vanished while being paid"));
        if (won) {
            return new PayOutcome.Paid(now, mine);
        }
        // Lost: the window closed first, or a concurrent request paid. Our charge goes back, unless it is the very
        // charge that paid (the same idempotency key gives the same reference).
        Optional<PaymentRecord> stored = now.state() == OrderState.PAID ? payments.payment(order.orderId()) : Optional.empty();
        if (stored.isEmpty() || !stored.get().reference().equals(approved.reference())) {
            provider.refund(approved.reference());
        }
        return stored.<PayOutcome>map(p -> new PayOutcome.Paid(now, p)).orElseGet(PayOutcome.Expired::new);
    }

    private PayOutcome paid(Order order) {
        return payments.payment(order.orderId()).<PayOutcome>map(p -> new PayOutcome.Paid(order, p))
                .orElseThrow(() -> new IllegalStateException("order " + order.orderId() + " is PAID without a payment"));
    }
}
