package dev.seckill.bench.load;

import dev.seckill.check.Op;
import dev.seckill.check.OpKind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One purchase attempt as the client saw it: who, when (ns from the start), how long, the answer, and when the answer
 * came by the wall clock ({@code endMillis}, epoch ms: the checker holds a SOLD_OUT against the orders minted by then).
 */
public record AnsweredClick(long userId, long startNanos, long latencyNanos, int status, String code, String orderId,
                      boolean byEdge, long endMillis) {

    public boolean accepted() {
        return status == 202;
    }

    /** What counts of answers are keyed by ({@link Answer#kind}). */
    public String kind() {
        return Answer.kind(status, "NO_ANSWER".equals(code) ? null : code, byEdge);
    }

    /**
     * The attempt as the checker's operation (number {@code id}) on {@code saleId}: a purchase without a request id,
     * answered by "edge" when the edge wrote the answer, else by "service"; no answer is status 0 without a code.
     */
    public Op op(long saleId, long id) {
        long end = endMillis;
        long start = end - latencyNanos / 1_000_000;
        return new Op(id, OpKind.PURCHASE, null, saleId, userId, 0, start, end, status, status == 0 ? null : code,
                orderId, byEdge ? "edge" : "service", null);
    }

    /** Every attempt of {@code saleId} as the checker's history, numbered from 1. */
    public static List<Op> ops(long saleId, Collection<AnsweredClick> attempts) {
        List<Op> out = new ArrayList<>(attempts.size());
        for (AnsweredClick a : attempts) {
            out.add(a.op(saleId, out.size() + 1));
        }
        return out;
    }
}
