package dev.seckill.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;

import javax.sql.DataSource;

/** The MySQL/MariaDB connection pool, and the schema migrations from {@code sql/} applied at start. */
public final class Database {

    private Database() {
    }

    public static HikariDataSource pool(DbSettings db) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("seckill-db");
        hc.setJdbcUrl(db.url());
        hc.setUsername(db.user());
        hc.setPassword(db.password());
        hc.setMaximumPoolSize(db.pool());
        // Times are stored in UTC whatever the server's zone is.
        hc.setConnectionInitSql("SET time_zone = '+00:00'");
        // Do not block start-up when the DB is down: health says so, and requests that need it fail with 503.
        hc.setInitializationFailTimeout(-1);
        hc.setConnectionTimeout(2000);
        hc.setValidationTimeout(1000);
        return new HikariDataSource(hc);
    }

    /**
     * Applies the versioned migrations (Flyway keeps its own history table and lock, so instances may race). A
     * database that does not hand out a connection yet (still starting, or slow on a loaded machine: a connection
     * waits 2 s) is tried again, for about a minute, before the start fails.
     */
    public static void migrate(DataSource ds) {
        Flyway.configure()
                .dataSource(ds)
                .connectRetries(12)
                .connectRetriesInterval(5)
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }
}
