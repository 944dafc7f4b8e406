package dev.seckill.db;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Instants to and from DATETIME(3) columns. Every session runs in UTC (see {@link Database}) and the driver maps
 * Timestamp through the JVM's zone: going through LocalDateTime in UTC keeps the stored wall-clock time equal to
 * the UTC instant whatever the JVM's zone is.
 */
public final class SqlTimes {

    private SqlTimes() {
    }

    public static Timestamp utc(Instant i) {
        return Timestamp.valueOf(LocalDateTime.ofInstant(i, ZoneOffset.UTC));
    }

    /** The instant a column holds, or null for SQL NULL. */
    public static Instant instant(Timestamp t) {
        return t == null ? null : t.toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
}
