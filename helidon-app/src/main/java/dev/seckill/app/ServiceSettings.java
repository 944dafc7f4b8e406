package dev.seckill.app;

import dev.seckill.admin.ReconcileSettings;
import dev.seckill.archive.ArchiveSettings;
import dev.seckill.config.Setting;
import dev.seckill.db.DbSettings;
import dev.seckill.expiry.ExpirySettings;
import dev.seckill.identity.JwtSettings;
import dev.seckill.identity.TokenSettings;
import dev.seckill.line.LineSettings;
import dev.seckill.protection.ProtectionSettings;
import dev.seckill.purchase.KafkaSettings;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.ResendSettings;
import dev.seckill.redis.RedisSettings;
import io.helidon.config.Config;

import java.util.OptionalLong;

/**
 * Every setting of the service, read once at start, before any client or thread exists, so a missing or bad value
 * stops the start with one line naming its key. Each section has its record, in the package that uses it; the
 * single-key sections ({@code seckill.admin}, {@code demo}, {@code soldout}, {@code edge} and {@code node}) are read
 * here. The defaults are application.yaml's, and only there; {@code server} and {@code admin} are Helidon's
 * listeners, which it reads itself ({@link Listeners}).
 *
 * @param adminToken   operators' bearer token ({@code seckill.admin.token}); empty: admin routes answer 401
 * @param demoLogin    the demo sign-in route ({@code seckill.demo.login})
 * @param soldOutTtlMs how long this instance answers SOLD_OUT itself ({@code seckill.soldout.ttl-ms})
 * @param edgeAdmin    edge admin base URLs, comma-separated ({@code seckill.edge.admin}); empty: none
 * @param node         the order-id node number ({@code seckill.node}); absent: drawn from Redis at start
 */
record ServiceSettings(RedisSettings redis, KafkaSettings kafka, DbSettings db, TokenSettings token, JwtSettings jwt,
                       String adminToken, boolean demoLogin, LimiterSettings limiter, long soldOutTtlMs,
                       String edgeAdmin, OptionalLong node, ProtectionSettings protection,
                       ReconcileSettings reconcile, ExpirySettings expiry, ResendSettings resend,
                       ArchiveSettings archive, LineSettings line) {

    /** @param root the whole config: application.yaml with the environment over it */
    static ServiceSettings from(Config root) {
        Config app = root.get("seckill");
        KafkaSettings kafka = KafkaSettings.from(root.get("kafka"));
        ReconcileSettings reconcile = ReconcileSettings.from(app.get("reconcile"), kafka.deliveryTimeout());
        return new ServiceSettings(RedisSettings.from(root.get("redis")), kafka, DbSettings.from(root.get("db")),
                TokenSettings.from(app.get("token")), JwtSettings.from(app.get("jwt")),
                Setting.text(app.get("admin.token")),
                Setting.flag(app.get("demo.login")), LimiterSettings.from(app.get("limiter")),
                Setting.number(app.get("soldout.ttl-ms")), Setting.text(app.get("edge.admin")),
                Setting.optionalNumber(app.get("node")), ProtectionSettings.from(app.get("protection")), reconcile,
                ExpirySettings.from(app.get("expiry")), ResendSettings.from(app.get("resend")),
                ArchiveSettings.from(app.get("archive"), reconcile.grace()),
                LineSettings.from(app.get("line")));
    }
}
