package dev.seckill.app;

import dev.seckill.admin.AdminAuth;
import dev.seckill.identity.JwksKeys;
import dev.seckill.identity.JwtSettings;
import dev.seckill.identity.TokenSettings;
import dev.seckill.identity.TokenSigner;
import dev.seckill.identity.TokenVerifier;
import dev.seckill.identity.VerifiedTokens;
import dev.seckill.line.LineTickets;

import java.time.Clock;

/**
 * The service's secrets and keys, checked before anything starts: the token secret (the demo sign-in's tokens, the
 * keys of challenges and paths), how sign-in tokens are checked (the JWKS URL, the HS256 secret), the operators'
 * admin token and the HMAC secret of line tickets. Each constructor refuses a value too short to be a secret, or a
 * sign-in with no way to check a token (IllegalArgumentException). The JWKS itself is fetched later, by
 * {@link Wiring}.
 *
 * @param jwks the identity provider's keys; null without a JWKS URL
 */
record Credentials(TokenSigner signer, VerifiedTokens tokens, JwksKeys jwks, AdminAuth admin, LineTickets lineTickets) {

    static Credentials from(TokenSettings token, JwtSettings jwt, String adminToken, String lineSecret, Clock clock) {
        JwksKeys jwks = jwt.jwksUrl().isEmpty() ? null
                : JwksKeys.at(jwt.jwksUrl(), jwt.jwksTimeout(), jwt.jwksRefresh(), JwtSettings.JWKS_MAX_AGE, clock);
        TokenVerifier verifier = new TokenVerifier(jwt.hs256Secret(), jwks, jwt.claims(), clock);
        return new Credentials(new TokenSigner(token.secret(), token.ttl(), clock),
                new VerifiedTokens(verifier, JwtSettings.CACHE_SIZE, clock), jwks, new AdminAuth(adminToken),
                new LineTickets(lineSecret, clock));
    }
}
