package dev.seckill.admin;

import dev.seckill.identity.Authenticator;
import io.helidon.webserver.http.ServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Checks the operator's bearer token (SECKILL_ADMIN_TOKEN). With no token configured every admin call is refused. */
public final class AdminAuth {

    private final byte[] token;

    public AdminAuth(String token) {
        this.token = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
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
