package dev.seckill.identity;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

import java.util.Optional;

/** Reads {@code Authorization: Bearer <token>} and checks it. */
public final class Authenticator {

    private static final String BEARER = "Bearer ";
    private static final Verification MISSING = new Verification.Refused(TokenRefusal.TOKEN_MISSING);

    private final TokenCheck tokens;

    public Authenticator(TokenCheck tokens) {
        this.tokens = tokens;
    }

    /** The request's user, or why it has none. */
    public Verification verify(ServerRequest req) {
        return bearer(req).map(tokens::verify).orElse(MISSING);
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
