package dev.seckill.writer.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.writer.config.WriterSettings;

/** The writer's connection pool. */
public final class DataSources {

    private DataSources() {
    }

    public static HikariDataSource pool(WriterSettings.Db db) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("writer-db");
        hc.setJdbcUrl(db.url());
        hc.setUsername(db.user());
        hc.setPassword(db.password());
        hc.setMaximumPoolSize(db.pool());
        // created_at is written as a UTC wall-clock time, whatever the server's zone is.
        hc.setConnectionInitSql("SET time_zone = '+00:00'");
        // Each statement sees the latest committed rows and takes no gap locks: fewer lock waits between a
        // writer and a zombie writer of the same partition; the batch checks its own counts anyway.
        hc.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        hc.setAutoCommit(false);
        // Start even while the DB is down: the consumer retries with backoff and health reports DOWN.
        hc.setInitializationFailTimeout(-1);
        // A DB outage fails a batch within 2 s and the backoff takes over, instead of hanging the loop.
        hc.setConnectionTimeout(2000);
        hc.setValidationTimeout(1000);
        return new HikariDataSource(hc);
    }
}
