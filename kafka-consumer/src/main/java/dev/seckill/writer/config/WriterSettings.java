package dev.seckill.writer.config;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * Every setting of the writer, read once from config at start and validated there, so that a bad value stops the
 * process with a clear message instead of surfacing later inside the consumer loop.
 */
public record WriterSettings(Kafka kafka, Db db, Retry retry, Relay relay, Duration stall, Duration shutdownTimeout) {

    /** Largest batch accepted: one batch is one transaction and one multi-row insert. */
    public static final int MAX_BATCH = 5000;

    // Not configuration (docs/configuration.md, "What is a knob"): values nobody operating a sale needs to turn.
    /** The longest wait of one poll when idle: only how soon an idle loop looks again; records end it at once. */
    static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /** Connections: one writes, one relays order events, the rest serve the health check and a reconnect. */
    static final int DB_POOL = 4;
    /** The first wait after a failed batch (it doubles up to writer.backoff.max-ms): a blip costs 0.1 s. */
    static final Duration INITIAL_BACKOFF = Duration.ofMillis(100);
    /**
     * Optimistic-lock attempts on one sale's stock row within a transaction before the whole batch is retried (with
     * the backoff): a conflict is a concurrent commit on that row, rare since a sale's orders come through one
     * partition, so five in a row say the row is contended and backing off is right.
     */
    static final int VERSION_ATTEMPTS = 5;
    /** No poll for a minute: the consumer loop is stuck (a poll ends within POLL_TIMEOUT, a batch within seconds). */
    static final Duration STALL = Duration.ofMinutes(1);
    /** How often an idle (or standby) relay looks for events: order events reach Kafka within 0.2 s of their row. */
    static final Duration RELAY_POLL = Duration.ofMillis(200);
    /** Most events read per relay transaction: a relay with events left goes on at once, so this only sizes a turn. */
    static final int RELAY_BATCH = 500;

    public WriterSettings {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(relay, "relay");
        positive(stall, "stall");
        positive(shutdownTimeout, "writer.shutdown-timeout-ms");
    }

    /** Where the orders come from and where the ones that can never be written go. */
    public record Kafka(String bootstrap, String topic, String deadLetterTopic, String groupId, int maxPollRecords,
                        Duration pollTimeout, Duration sessionTimeout) {
        public Kafka {
            notBlank(bootstrap, "kafka.bootstrap");
            notBlank(topic, "kafka.topic");
            notBlank(deadLetterTopic, "kafka.dead-letter-topic");
            notBlank(groupId, "kafka.group-id");
            if (maxPollRecords < 1 || maxPollRecords > MAX_BATCH) {
                throw new IllegalArgumentException("kafka.max-poll-records must be 1.." + MAX_BATCH + ", is " + maxPollRecords);
            }
            positive(pollTimeout, "pollTimeout");
            positive(sessionTimeout, "kafka.session-timeout-ms");
        }
    }

    /** The orders database. */
    public record Db(String url, String user, String password, int pool) {
        public Db {
            notBlank(url, "db.url");
            notBlank(user, "db.user");
            Objects.requireNonNull(password, "db.password");
            if (pool < 2) {
                throw new IllegalArgumentException("pool must be at least 2 (writer + health check), is " + pool);
            }
        }
    }

    /** How failed batches and stock-row conflicts are retried. */
    public record Retry(Duration initialBackoff, Duration maxBackoff, int versionAttempts) {
        public Retry {
            positive(initialBackoff, "initialBackoff");
            positive(maxBackoff, "writer.backoff.max-ms");
            if (maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalArgumentException("writer.backoff.max-ms must be at least the first wait, "
                        + initialBackoff.toMillis() + " ms, is " + maxBackoff.toMillis());
            }
            if (versionAttempts < 1) {
                throw new IllegalArgumentException("versionAttempts must be at least 1, is " + versionAttempts);
            }
        }
    }

    /**
     * The outbox relay: where order events go, how often an idle relay looks for new ones, how many one transaction
     * publishes. {@code enabled} false leaves the publishing to the other instances.
     */
    public record Relay(boolean enabled, String topic, Duration poll, int batch) {
        public Relay {
            notBlank(topic, "relay.topic");
            positive(poll, "poll");
            if (batch < 1 || batch > MAX_BATCH) {
                throw new IllegalArgumentException("batch must be 1.." + MAX_BATCH + ", is " + batch);
            }
        }
    }

    /** Reads the settings from the root config; every default is in application.yaml, and only there. */
    public static WriterSettings from(Config root) {
        Config k = root.get("kafka");
        Config d = root.get("db");
        Config w = root.get("writer");
        Config r = root.get("relay");
        return new WriterSettings(
                new Kafka(Setting.text(k.get("bootstrap")), Setting.text(k.get("topic")),
                        Setting.text(k.get("dead-letter-topic")), Setting.text(k.get("group-id")),
                        Setting.integer(k.get("max-poll-records")), POLL_TIMEOUT,
                        millis(k.get("session-timeout-ms"))),
                new Db(Setting.text(d.get("url")), Setting.text(d.get("user")), Setting.text(d.get("password")),
                        DB_POOL),
                new Retry(INITIAL_BACKOFF, millis(w.get("backoff.max-ms")), VERSION_ATTEMPTS),
                new Relay(Setting.flag(r.get("enabled")), Setting.text(r.get("topic")), RELAY_POLL, RELAY_BATCH),
                STALL,
                millis(w.get("shutdown-timeout-ms")));
    }

    private static Duration millis(Config c) {
        return Setting.duration(c, ChronoUnit.MILLIS);
    }

    private static void notBlank(String v, String key) {
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(key + " must be set");
        }
    }

    private static void positive(Duration d, String key) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, is " + d);
        }
    }
}
