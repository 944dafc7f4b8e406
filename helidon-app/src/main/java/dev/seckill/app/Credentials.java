package dev.seckill.app;

import dev.seckill.admin.AdminAuth;
import dev.seckill.identity.TokenSettings;
import dev.seckill.identity.TokenSigner;

import java.time.Clock;

/**
 * The service's two secrets, checked before anything starts: the HMAC secret of user tokens and the operators' admin
 * token. Each constructor refuses a value too short to be a secret (IllegalArgumentException).
 */
record Credentials(TokenSigner signer, AdminAuth admin) {

    static Credentials from(TokenSettings token, String adminToken, Clock clock) {
        return new Credentials(new TokenSigner(token.secret(), token.ttl(), clock), new AdminAuth(adminToken));
    }
}
