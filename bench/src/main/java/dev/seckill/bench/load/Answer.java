package dev.seckill.bench.load;

import dev.seckill.testkit.Bodies;

import java.time.Duration;

/**
 * One answer as the load client read it: the status (0 when none came), the body (null then), and whether the edge
 * wrote it itself (X-Seckill-Answered-By). {@link #kind} keys every count of answers, so that the edge's
 * {@code 429 RATE_LIMITED} and the service's are never counted as one.
 */
public record Answer(int status, String body, boolean byEdge) {

    public static final Answer NONE = new Answer(0, null, false);
    public static final String NO_ANSWER = "0 NO_ANSWER";

    public String code() {
        return Bodies.field(body, "code");
    }

    /** "202 QUEUED", "429 RATE_LIMITED (edge)", "404 (edge)" without a code, "0 NO_ANSWER". */
    public String kind() {
        return kind(status, status == 0 ? null : code(), byEdge);
    }

    public static String kind(int status, String code, boolean byEdge) {
        return status == 0 ? NO_ANSWER : status + (code == null ? "" : " " + code) + (byEdge ? " (edge)" : "");
    }

    /** The attempt this answer ends; called as the answer is read, so the wall clock now is when it came. */
    public AnsweredClick attempt(long userId, long startNanos, long latencyNanos) {
        return new AnsweredClick(userId, startNanos, latencyNanos, status, status == 0 ? "NO_ANSWER" : code(),
                Bodies.field(body, "orderId"), byEdge, System.currentTimeMillis());
    }

    /** The wait a refusal asks for: its body's {@code retryAfter} (whole seconds, as its Retry-After), else 1 s. */
    public long retryAfterNanos() {
        String s = Bodies.field(body, "retryAfter");
        long seconds = s != null && s.matches("\\d{1,9}") ? Long.parseLong(s) : 1;
        return Duration.ofSeconds(Math.max(1, seconds)).toNanos();
    }
}
