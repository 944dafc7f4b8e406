package dev.seckill.db;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

/**
 * The {@code db} config section, read once: the JDBC URL, the user and its password ({@code DB_PASSWORD}; the stack
 * script generates one), and the size of the connection pool. The defaults are application.yaml's.
 */
public record DbSettings(String url, String user, String password, int pool) {

    public DbSettings {
        if (pool < 1) {
            throw new IllegalArgumentException("db.pool must be at least 1, not " + pool);
        }
    }

    public static DbSettings from(Config db) {
        return new DbSettings(Setting.text(db.get("url")), Setting.text(db.get("user")),
                Setting.text(db.get("password")), Setting.integer(db.get("pool")));
    }
}
