package dev.seckill.order;

import dev.seckill.event.OrderEventOutbox;
import dev.seckill.event.OrderStateEvent;
import dev.seckill.failure.DependencyUnavailable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.seckill.db.SqlTimes.utc;

/**
 * Payments in MySQL. The pay is one conditional UPDATE: {@code state = 'CONFIRMED' AND NOW(3) <= payBy}, where the
 * expiry's is {@code state = 'CONFIRMED' AND NOW(3) > payBy}; the row lock and the affected-row count decide which
 * one happened, so an order is never both PAID and EXPIRED. The order's PAID event is written to the outbox in the
 * pay's transaction.
 */
public final class PaymentRepository implements PaymentStore {

    private static final String PAY = "UPDATE seckill_order SET state = 'PAID', paid_at = NOW(3) "
            + "WHERE order_id = ? AND user_id = ? AND state = 'CONFIRMED' AND NOW(3) <= ?";
    private static final String STORE = "INSERT INTO payment (order_id, idempotency_key, provider, reference, "
            + "amount_cents, paid_at) VALUES (?, ?, ?, ?, ?, NOW(3))";
    private static final String FIND = "SELECT idempotency_key, provider, reference, amount_cents FROM payment "
            + "WHERE order_id = ?";

    private final DataSource db;

    public PaymentRepository(DataSource db) {
        this.db = db;
    }

    @Override
    public boolean recordPaid(Order order, PaymentRecord payment, String requestId) {
        long orderId = order.orderId();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                boolean paid = pay(c, orderId, order.userId(), order.payBy()) && store(c, orderId, payment);
                if (paid) {
                    OrderEventOutbox.append(c, List.of(new OrderEventOutbox.Change(OrderStateEvent.Type.PAID,
                            orderId, order.saleId(), order.userId(), requestId)));
                    c.commit();
                } else {
                    c.rollback();
                }
                return paid;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to record the payment of order " + orderId + ": " + e.getMessage(), e);
        }
    }

    private static boolean pay(Connection c, long orderId, long userId, Instant payBy) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PAY)) {
            ps.setLong(1, orderId);
            ps.setLong(2, userId);
            ps.setTimestamp(3, utc(payBy));
            return ps.executeUpdate() == 1;
        }
    }

    private static boolean store(Connection c, long orderId, PaymentRecord p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(STORE)) {
            ps.setLong(1, orderId);
            ps.setString(2, p.idempotencyKey());
            ps.setString(3, p.provider());
            ps.setString(4, p.reference());
            ps.setLong(5, p.amountCents());
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public Optional<PaymentRecord> payment(long orderId) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new PaymentRecord(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getLong(4))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the payment of order " + orderId + ": " + e.getMessage(), e);
        }
    }
}
