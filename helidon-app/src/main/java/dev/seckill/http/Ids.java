package dev.seckill.http;

import io.helidon.common.uri.UriPath;
import io.helidon.webserver.http.ServerRequest;

import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The one id syntax of the contract, for sales and orders at both the edge and the service:
 * {@code ^[1-9][0-9]{0,18}$} and within a signed long. Anything else names nothing (404), so every id has exactly
 * one spelling and the edge's per-sale flags cover it. {@code Long.parseLong} alone is not enough: it takes
 * {@code +1}, {@code 007}, and full-width or Arabic-Indic digits as 1 and 7.
 */
public final class Ids {

    /** ASCII digits only: {@code [0-9]} (unlike {@code \p{Nd}}) never matches other scripts' digits. */
    private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,18}");

    private Ids() {
    }

    /**
     * The id a route's path parameter spells, or empty when it is not an id. Helidon hands path parameters over
     * decoded ({@code %31} as 1, {@code 1;x} as 1 with a matrix parameter), so the path must also be written as it
     * reads: one without escapes, {@code ;} parameters or dot segments names no sale or order.
     */
    public static OptionalLong param(ServerRequest req, String name) {
        UriPath path = req.path().absolute();
        if (!path.rawPath().equals(path.path())) {
            return OptionalLong.empty();
        }
        return parse(req.path().pathParameters().get(name));
    }

    /** The id a path segment spells, or empty when it is not an id. */
    public static OptionalLong parse(String raw) {
        if (raw == null || !ID.matcher(raw).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(raw));
        } catch (NumberFormatException e) {
            // Nineteen digits beyond Long.MAX_VALUE.
            return OptionalLong.empty();
        }
    }
}
