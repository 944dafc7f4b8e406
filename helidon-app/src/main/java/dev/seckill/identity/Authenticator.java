package dev.seckill.identity;

import io.helidon.http.HeaderNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.helidon.webserver.http.ServerRequest;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code Authorization: Bearer <token>} and checks it; counts the refusals by reason
 * ({@code seckill.auth.refused{reason}}: a wave of UNKNOWN_KEY or WRONG_AUDIENCE is a shop misconfigured, not buyers).
 */
public final class Authenticator {

    private static final String BEARER = "Bearer ";
    private static final Verification MISSING = new Verification.Refused(TokenRefusal.TOKEN_MISSING);

    private final TokenCheck tokens;
    private final Map<TokenRefusal, Counter> refused = new EnumMap<>(TokenRefusal.class);

    public Authenticator(TokenCheck tokens, MeterRegistry registry) {
        this.tokens = tokens;
        for (TokenRefusal r : TokenRefusal.values()) {
            refused.put(r, Counter.builder("seckill.auth.refused").tag("reason", r.name())
                    .description("bearer tokens refused (401), by reason").register(registry));
        }
    }

    /** The request's user, or why it has none. */
    public Verification verify(ServerRequest req) {
        Verification v = bearer(req).map(tokens::verify).orElse(MISSING);
        if (v instanceof Verification.Refused r) {
            refused.get(r.reason()).increment();
        }
        return v;
    }

    public Optional<User> user(ServerRequest req) {
        return verify(req).signedIn();
    }

    /** The bearer token of a request, if it has one. */
    public static Optional<String> bearer(ServerRequest req) {
        return req.headers().first(HeaderNames.AUTHORIZATION)
                .filter(h -> h.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(h -> h.substring(BEARER.length()).trim());
    }
}
