package dev.seckill.identity;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

import java.util.Optional;

/** Reads {@code Authorization: Bearer <token>} and verifies it. */
public final class Authenticator {

    private static final String BEARER = "Bearer ";

    private final TokenSigner signer;

    public Authenticator(TokenSigner signer) {
        this.signer = signer;
    }

    public Optional<User> user(ServerRequest req) {
        return bearer(req).flatMap(signer::verify);
    }

    /** The bearer token of a request, if it has one. */
    public static Optional<String> bearer(ServerRequest req) {
        return req.headers().first(HeaderNames.AUTHORIZATION)
                .filter(h -> h.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(h -> h.substring(BEARER.length()).trim());
    }
}
