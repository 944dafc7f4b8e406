package dev.seckill.bench.load;

/** One purchase attempt as the client saw it: who, when (ns from the start), how long, and the answer. */
public record Attempt(long userId, long startNanos, long latencyNanos, int status, String code, String orderId,
                      boolean byEdge) {

    public boolean accepted() {
        return status == 202;
    }

    /** What counts of answers are keyed by ({@link Answer#kind}). */
    public String kind() {
        return Answer.kind(status, "NO_ANSWER".equals(code) ? null : code, byEdge);
    }
}
