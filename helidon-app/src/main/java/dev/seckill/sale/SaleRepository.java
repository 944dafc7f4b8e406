package dev.seckill.sale;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.line.WaitingRoom;
import dev.seckill.protection.SaleProtection;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.seckill.db.SqlTimes.instant;
import static dev.seckill.db.SqlTimes.utc;

/**
 * Sales in MySQL. The service inserts and reads them; the stock column moves with the orders: down as the batch
 * writer writes them, up as the expiry lets unpaid ones lapse (both bump the version).
 */
public final class SaleRepository implements SaleSource {

    private static final String COLUMNS = "id, name, price_cents, stock_total, starts_at, ends_at, pay_window_seconds"
            + ", protection, challenge_bits, line_prequeue_seconds, line_admit_seconds, line_admit_per_second";
    /** Orders that hold a unit: every state but EXPIRED (an expired order gave its unit back to the stock). */
    private static final String LIVE = "o.state <> 'EXPIRED'";

    private final DataSource db;

    public SaleRepository(DataSource db) {
        this.db = db;
    }

    public Sale insert(NewSale s) {
        String sql = "INSERT INTO sale (name, price_cents, stock_total, stock, starts_at, ends_at, pay_window_seconds"
                + ", protection, challenge_bits, line_prequeue_seconds, line_admit_seconds, line_admit_per_second)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, s.name());
            ps.setLong(2, s.priceCents());
            ps.setInt(3, s.stock());
            ps.setInt(4, s.stock());
            ps.setTimestamp(5, utc(s.startsAt()));
            ps.setTimestamp(6, utc(s.endsAt()));
            ps.setInt(7, s.payWindowSeconds());
            ps.setString(8, s.protection().wire());
            ps.setInt(9, s.protection().bits());
            WaitingRoom room = s.waitingRoom();
            ps.setObject(10, room == null ? null : room.prequeueSeconds());
            ps.setObject(11, room == null ? null : room.admitSeconds());
            ps.setObject(12, room == null ? null : room.admitPerSecond());
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return new Sale(keys.getLong(1), s.name(), s.priceCents(), s.stock(), s.startsAt(), s.endsAt(),
                        s.payWindowSeconds(), s.protection(), room);
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to insert the sale: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Sale> find(long id) {
        List<Sale> found = query("SELECT " + COLUMNS + " FROM sale WHERE id = ?", id);
        return found.stream().findFirst();
    }

    @Override
    public List<Sale> since(long afterId, int limit) {
        return query("SELECT " + COLUMNS + " FROM sale WHERE id > ? ORDER BY id LIMIT " + Math.max(1, limit), afterId);
    }

    /** Sales that ended in {@code [from, to)}, the earliest first (at most {@code limit}). */
    public List<Sale> ended(Instant from, Instant to, int limit) {
        return query("SELECT " + COLUMNS + " FROM sale WHERE ends_at >= ? AND ends_at < ? ORDER BY ends_at, id LIMIT "
                + Math.max(1, limit), utc(from), utc(to));
    }

    @Override
    public List<Sale> current(Instant now) {
        return query("SELECT " + COLUMNS + " FROM sale WHERE ends_at > ? ORDER BY starts_at, id LIMIT 100", utc(now));
    }

    /**
     * The DB stock of a sale (the batch writer decrements it as it writes orders, the expiry gives units back) and
     * what it should be (stock_total - live orders), read in one statement so a concurrent write cannot make them
     * disagree.
     */
    public DbStock dbStock(long id) {
        String sql = "SELECT s.stock, s.stock_total - (SELECT COUNT(*) FROM seckill_order o WHERE o.sale_id = s.id AND "
                + LIVE + ") FROM sale s WHERE s.id = ?";
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no sale " + id);
                }
                return new DbStock(rs.getLong(1), rs.getLong(2));
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the sale's stock: " + e.getMessage(), e);
        }
    }

    /**
     * Repairs a DB stock that disagrees with the live orders, in one statement (the subquery reads under the
     * update's locks), bumping the version so a concurrent writer's optimistic update retries on fresh values.
     *
     * @return true when it changed the stock
     */
    public boolean repairDbStock(long id) {
        String expected = "(SELECT t.n FROM (SELECT s2.stock_total - COUNT(o.order_id) AS n FROM sale s2 "
                + "LEFT JOIN seckill_order o ON o.sale_id = s2.id AND " + LIVE + " WHERE s2.id = ? GROUP BY s2.stock_total) t)";
        String sql = "UPDATE sale SET stock = " + expected + ", version = version + 1 WHERE id = ? AND stock <> " + expected;
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            ps.setLong(2, id);
            ps.setLong(3, id);
            return ps.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to repair the sale's stock: " + e.getMessage(), e);
        }
    }

    @Override
    public long maxId() {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(id), 0) FROM sale");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read sales: " + e.getMessage(), e);
        }
    }

    /** The stored line (columns 10-12 of {@link #COLUMNS}), or null for a sale without one. */
    private static WaitingRoom waitingRoom(ResultSet rs) throws SQLException {
        int prequeue = rs.getInt(10);
        if (rs.wasNull()) {
            return null;
        }
        int admit = rs.getInt(11);
        int rate = rs.getInt(12);
        return new WaitingRoom(prequeue, admit, rs.wasNull() ? null : rate);
    }

    private List<Sale> query(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<Sale> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Sale(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4),
                            instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6)), rs.getInt(7),
                            SaleProtection.stored(rs.getString(8), rs.getInt(9)), waitingRoom(rs)));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read sales: " + e.getMessage(), e);
        }
    }
}
