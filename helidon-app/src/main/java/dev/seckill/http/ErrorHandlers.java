package dev.seckill.http;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.InvalidInput;
import dev.seckill.failure.OrderKept;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.apache.kafka.common.KafkaException;
import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;

/**
 * The one place where exceptions become answers. Business outcomes are values, not exceptions; what arrives here
 * is bad input (400), a refusal of the server itself (404, 405, 413...), an infrastructure failure (503 with
 * Retry-After: the purchase path fails closed), or a bug (500). Clients get fixed messages and the request id;
 * what actually happened (driver, SQL, framework text) goes to the log under that id, and nowhere else.
 */
public final class ErrorHandlers {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorHandlers.class);

    private ErrorHandlers() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(InvalidInput.class, ErrorHandlers::invalidInput)
                .error(RequestException.class, (req, res, e) -> byStatus(req, res, e.status(), e))
                .error(HttpException.class, (req, res, e) -> byStatus(req, res, e.status(), e))
                .error(DependencyUnavailable.class, ErrorHandlers::unavailable)
                .error(RedisException.class, ErrorHandlers::unavailable)
                .error(KafkaException.class, ErrorHandlers::unavailable)
                .error(Exception.class, ErrorHandlers::other);
    }

    /** Our own message naming the field is safe to show; a cause (a parser's text) is only logged. */
    private static void invalidInput(ServerRequest req, ServerResponse res, InvalidInput e) {
        if (e.getCause() != null) {
            LOG.atDebug().log(() -> "request " + RequestIds.of(req) + ": bad " + e.field() + ": "
                    + causes(e));
        }
        Answers.json(res, Status.BAD_REQUEST_400, Answers.error(req, "BAD_REQUEST", e.getMessage(), "field", e.field()));
    }

    /**
     * A failed dependency: logged once per request at WARNING without the stack (during an outage every purchase
     * lands here, and the chain of messages says what failed).
     */
    private static void unavailable(ServerRequest req, ServerResponse res, Exception e) {
        LOG.atWarn().log(() -> "request " + RequestIds.of(req) + ": failed to answer "
                + route(req) + ", a dependency is unavailable: " + causes(e));
        if (e instanceof OrderKept kept) {
            SharedAnswer a = SharedAnswer.ORDER_KEPT;
            res.header(HeaderNames.RETRY_AFTER, Integer.toString(a.retryAfter()));
            Answers.json(res, a.status(), Answers.error(req, a.code(), a.message("orderId", kept.orderId()),
                    "orderId", kept.orderId()));
            return;
        }
        SharedAnswer a = SharedAnswer.DEPENDENCY_UNAVAILABLE;
        res.header(HeaderNames.RETRY_AFTER, Integer.toString(a.retryAfter()));
        Answers.error(req, res, a);
    }

    /** Helidon's own refusals (no route, wrong method, payload too large, unparseable request) as JSON. */
    private static void byStatus(ServerRequest req, ServerResponse res, Status status, Exception e) {
        if (status.code() >= 500) {
            other(req, res, e);
            return;
        }
        // Client mistakes and probes: the detail only at DEBUG, so a flood of them cannot flood the log.
        LOG.atDebug().log(() -> "request " + RequestIds.of(req) + ": refused " + route(req) + " with "
                + status.code() + ": " + e.getMessage());
        Refusal r = switch (status.code()) {
            case 404 -> Refusal.of(SharedAnswer.NOT_FOUND);
            case 405 -> Refusal.of(SharedAnswer.METHOD_NOT_ALLOWED);
            case 413 -> Refusal.of(SharedAnswer.TOO_LARGE);
            case 415 -> new Refusal("UNSUPPORTED_MEDIA_TYPE", "unsupported content type");
            default -> Refusal.of(SharedAnswer.BAD_REQUEST);
        };
        Answers.error(req, res, status, r.code(), r.message());
    }

    /** The code and fixed message of one of the server's own refusals. */
    private record Refusal(String code, String message) {

        static Refusal of(SharedAnswer a) {
            return new Refusal(a.code(), a.message());
        }
    }

    private static void other(ServerRequest req, ServerResponse res, Exception e) {
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof RedisException || c instanceof KafkaException || c instanceof SQLException) {
                unavailable(req, res, e);
                return;
            }
        }
        LOG.error("request " + RequestIds.of(req) + ": failed to answer " + route(req)
                + ": " + e, e);
        Answers.error(req, res, Status.INTERNAL_SERVER_ERROR_500, "INTERNAL", "unexpected error");
    }

    private static String route(ServerRequest req) {
        return req.prologue().method().text() + " " + req.path().absolute().path();
    }

    /** The messages of an exception and its causes, outermost first. */
    private static String causes(Throwable e) {
        StringBuilder s = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            s.append(" <- ").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
        }
        return s.toString();
    }
}
