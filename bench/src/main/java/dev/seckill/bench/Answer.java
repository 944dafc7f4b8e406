package dev.seckill.bench;

/**
 * One answer as the load client read it: the status (0 when none came), the body (null then), and whether the edge
 * wrote it itself ({@code X-Seckill-Answered-By: edge}: its refusals and errors) rather than passing on the
 * service's. {@link #kind} is what every count of answers is keyed by, so that the edge's {@code 429 RATE_LIMITED}
 * and the service's are never counted as one.
 */
record Answer(int status, String body, boolean byEdge) {

    static final Answer NONE = new Answer(0, null, false);
    /** The kind of a request that got no answer (a failed or timed-out connection). */
    static final String NO_ANSWER = "0 NO_ANSWER";

    /** The body's {@code code}, or null. */
    String code() {
        return Bodies.field(body, "code");
    }

    /** "202 QUEUED", "429 RATE_LIMITED (edge)", "404 (edge)" without a code, "0 NO_ANSWER". */
    String kind() {
        return kind(status, status == 0 ? null : code(), byEdge);
    }

    static String kind(int status, String code, boolean byEdge) {
        if (status == 0) {
            return NO_ANSWER;
        }
        return status + (code == null ? "" : " " + code) + (byEdge ? " (edge)" : "");
    }
}
