package dev.seckill.order;

import dev.seckill.failure.InvalidInput;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

import java.util.regex.Pattern;

/**
 * The {@code Idempotency-Key} header a pay request must carry: 1 to 64 printable ASCII characters without spaces (a
 * UUID fits). It is stored with the payment and passed to the provider, so a retried request is the same charge.
 */
final class IdempotencyKey {

    static final HeaderName HEADER = HeaderNames.create("Idempotency-Key");
    private static final Pattern KEY = Pattern.compile("[\\x21-\\x7e]{1,64}");

    private IdempotencyKey() {
    }

    /** The key, or a 400 naming the header. */
    static String of(ServerRequest req) {
        String key = req.headers().first(HEADER).orElse(null);
        if (key == null || !KEY.matcher(key).matches()) {
            throw new InvalidInput(HEADER.defaultCase(), "an Idempotency-Key header of 1 to 64 printable characters "
                    + "is required, the same on every retry of this payment");
        }
        return key;
    }
}
