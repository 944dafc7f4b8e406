package dev.seckill.app;

import dev.seckill.admin.AdminAuth;
import dev.seckill.identity.TokenSigner;
import io.helidon.config.Config;

import java.time.Clock;
import java.time.Duration;

/**
 * The service's two secrets, read and checked before anything starts: the HMAC secret of user tokens and the
 * operators' admin token. Each constructor refuses a value too short to be a secret (IllegalArgumentException).
 */
record Credentials(TokenSigner signer, AdminAuth admin) {

    private static final long DEFAULT_TTL_SECONDS = 86_400;

    static Credentials from(Config app, Clock clock) {
        Duration ttl = Duration.ofSeconds(app.get("token.ttl-seconds").asLong().orElse(DEFAULT_TTL_SECONDS));
        return new Credentials(new TokenSigner(app.get("token.secret").asString().orElse(""), ttl, clock),
                new AdminAuth(app.get("admin.token").asString().orElse("")));
    }
}
