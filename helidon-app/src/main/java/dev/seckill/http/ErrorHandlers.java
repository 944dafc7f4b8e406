package dev.seckill.http;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.InvalidInput;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.apache.kafka.common.KafkaException;
import org.redisson.client.RedisException;

import java.sql.SQLException;
import java.util.Map;

/**
 * The one place where exceptions become answers. Business outcomes are values, not exceptions; what arrives here
 * is bad input (400), an infrastructure failure (503 with Retry-After: the purchase path fails closed), or a bug.
 */
public final class ErrorHandlers {

    private static final System.Logger LOG = System.getLogger(ErrorHandlers.class.getName());
    /** Seconds a client should wait after a dependency failure. */
    public static final int UNAVAILABLE_RETRY_AFTER = 1;

    private ErrorHandlers() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(InvalidInput.class, ErrorHandlers::badRequest)
                .error(RequestException.class, (req, res, e) -> byStatus(req, res, e.status(), e))
                .error(HttpException.class, (req, res, e) -> byStatus(req, res, e.status(), e))
                .error(DependencyUnavailable.class, (req, res, e) -> unavailable(res, e.getMessage()))
                .error(RedisException.class, (req, res, e) -> unavailable(res, "Redis is unavailable"))
                .error(KafkaException.class, (req, res, e) -> unavailable(res, "Kafka is unavailable"))
                .error(Exception.class, ErrorHandlers::other);
    }

    public static void unavailable(ServerResponse res, String message) {
        res.header(HeaderNames.RETRY_AFTER, Integer.toString(UNAVAILABLE_RETRY_AFTER));
        Answers.error(res, Status.SERVICE_UNAVAILABLE_503, "UNAVAILABLE", message);
    }

    private static void badRequest(ServerRequest req, ServerResponse res, InvalidInput e) {
        Map<String, Object> body = Answers.error("BAD_REQUEST", e.getMessage());
        body.put("field", e.field());
        Answers.json(res, Status.BAD_REQUEST_400, body);
    }

    /** Helidon's own refusals (no route, wrong method, payload too large, unparseable content) as JSON. */
    private static void byStatus(ServerRequest req, ServerResponse res, Status status, Exception e) {
        if (status.code() >= 500) {
            other(req, res, e);
            return;
        }
        String code = switch (status.code()) {
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 413 -> "PAYLOAD_TOO_LARGE";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            default -> "BAD_REQUEST";
        };
        String message = status.code() == 404 ? "no such route: " + req.prologue().method().text() + " " + req.path().path()
                : e.getMessage() == null ? status.reasonPhrase() : e.getMessage();
        Answers.error(res, status, code, message);
    }

    private static void other(ServerRequest req, ServerResponse res, Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root instanceof RedisException || root instanceof KafkaException || root instanceof SQLException) {
                unavailable(res, "a dependency is unavailable");
                return;
            }
        }
        LOG.log(System.Logger.Level.ERROR, "failed to answer " + req.path().path() + ": " + e, e);
        Answers.error(res, Status.INTERNAL_SERVER_ERROR_500, "INTERNAL", "unexpected error");
    }
}
