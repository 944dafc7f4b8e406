package dev.seckill.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The id an answer and its log lines share: the {@code X-Request-Id} the edge set when it is safe to echo (a short
 * token of letters, digits, '.', '_' and '-'), else one made here. Kept in the request's context, so every place
 * that asks during one request gets the same id.
 */
public final class RequestIds {

    public static final HeaderName HEADER = HeaderNames.create("X-Request-Id");
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private RequestIds() {
    }

    public static String of(ServerRequest req) {
        return req.context().get(RequestIds.class, String.class).orElseGet(() -> {
            String id = req.headers().first(HEADER).filter(h -> SAFE.matcher(h).matches()).orElseGet(RequestIds::fresh);
            req.context().register(RequestIds.class, id);
            return id;
        });
    }

    /** 32 hex digits, like nginx's $request_id. */
    private static String fresh() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return String.format("%016x%016x", r.nextLong(), r.nextLong());
    }
}
