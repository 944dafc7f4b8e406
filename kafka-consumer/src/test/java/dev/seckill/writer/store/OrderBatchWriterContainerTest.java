package dev.seckill.writer.store;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.config.WriterSettings;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mariadb.MariaDBContainer;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The batch transaction against a throwaway MariaDB in Docker, with the schema from the project's own sql/
 * migrations. Where there is no Docker engine (as on the project's build machines) it is skipped, and
 * {@link OrderBatchWriterIT} covers the same ground against the MariaDB that bin/seckill starts.
 */
@Testcontainers(disabledWithoutDocker = true)
class OrderBatchWriterContainerTest {

    @Container
    private static final MariaDBContainer MARIADB = new MariaDBContainer("mariadb:11.4");

    @Test
    void redeliveredBatchInsertsNothingAndTakesNoStock() throws SQLException {
        // Surefire runs in the module directory; the migrations live at the repository root.
        Flyway.configure().dataSource(MARIADB.getJdbcUrl(), MARIADB.getUsername(), MARIADB.getPassword())
                .locations("filesystem:" + Path.of("..", "sql").toAbsolutePath()).load().migrate();
        try (HikariDataSource db = DataSources.pool(new WriterSettings.Db(MARIADB.getJdbcUrl(),
                MARIADB.getUsername(), MARIADB.getPassword(), 2))) {
            long sale = createSale(db, 10);
            List<OrderEvent> batch = new ArrayList<>();
            for (int user = 1; user <= 4; user++) {
                batch.add(OrderEvent.of(1000 + user, sale, user, 500, 1_700_000_000_000L));
            }
            OrderBatchWriter writer = new OrderBatchWriter(db, 3);

            BatchResult first = writer.write(batch);
            BatchResult again = writer.write(batch);

            assertEquals(4, first.inserted());
            assertEquals(4, again.duplicates());
            assertEquals(6, intOf(db, "SELECT stock FROM sale WHERE id = " + sale));
            assertEquals(4, intOf(db, "SELECT COUNT(*) FROM seckill_order WHERE sale_id = " + sale));
        }
    }

    private static long createSale(HikariDataSource db, int stock) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO sale (name, price_cents, stock_total, stock, starts_at, ends_at) VALUES"
                    + " ('container sale', 500, " + stock + ", " + stock + ", '2030-01-01 00:00:00',"
                    + " '2030-01-02 00:00:00')", Statement.RETURN_GENERATED_KEYS);
            c.commit();
            try (ResultSet rs = s.getGeneratedKeys()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static int intOf(HikariDataSource db, String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
