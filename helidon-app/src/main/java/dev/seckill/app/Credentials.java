package dev.seckill.app;

import dev.seckill.admin.AdminAuth;
import dev.seckill.identity.TokenSettings;
import dev.seckill.identity.TokenSigner;
import dev.seckill.line.LineTickets;

import java.time.Clock;

/**
 * The service's secrets, checked before anything starts: the HMAC secret of user tokens, the operators' admin token
 * and the HMAC secret of line tickets. Each constructor refuses a value too short to be a secret
 * (IllegalArgumentException).
 */
record Credentials(TokenSigner signer, AdminAuth admin, LineTickets lineTickets) {

    static Credentials from(TokenSettings token, String adminToken, String lineSecret, Clock clock) {
        return new Credentials(new TokenSigner(token.secret(), token.ttl(), clock), new AdminAuth(adminToken),
                new LineTickets(lineSecret, clock));
    }
}
