package dev.seckill.bench;

/** One purchase attempt as the client saw it: who, when (ns from the start), how long, and the answer. */
public record Attempt(long userId, long startNanos, long latencyNanos, int status, String code, String orderId) {

    public boolean accepted() {
        return status == 202;
    }
}
