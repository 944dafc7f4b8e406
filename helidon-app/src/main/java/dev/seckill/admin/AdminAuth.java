package dev.seckill.admin;

import dev.seckill.identity.Authenticator;
import io.helidon.webserver.http.ServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Checks the operator's bearer token (SECKILL_ADMIN_TOKEN). With no token configured every admin call is refused;
 * a token short enough to guess is refused at start.
 */
public final class AdminAuth {

    public static final int MIN_TOKEN_CHARS = 24;

    private final byte[] token;

    public AdminAuth(String token) {
        String t = token == null ? "" : token;
        if (!t.isEmpty() && t.length() < MIN_TOKEN_CHARS) {
            throw new IllegalArgumentException("the admin token (seckill.admin.token, SECKILL_ADMIN_TOKEN) must be at "
                    + "least " + MIN_TOKEN_CHARS + " characters, it has " + t.length() + "; empty turns the admin routes off");
        }
        this.token = t.getBytes(StandardCharsets.UTF_8);
    }

    public boolean enabled() {
        return token.length > 0;
    }

    public boolean allows(ServerRequest req) {
        return enabled() && Authenticator.bearer(req)
                .map(t -> MessageDigest.isEqual(token, t.getBytes(StandardCharsets.UTF_8)))
                .orElse(false);
    }
}
