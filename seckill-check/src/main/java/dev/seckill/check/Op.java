package dev.seckill.check;

/**
 * One client operation of the workload, as the client saw it: when it started and ended (epoch milliseconds), what
 * it asked and what it was answered. {@code status} 0 means no answer (a timeout or a refused connection); {@code code}
 * is the body's {@code code} (null when the body had none); {@code orderId} the order id the answer named, if any.
 *
 * @param id        the operation's number in the history, from 1
 * @param requestId the {@code X-Request-Id} the client sent (the service logs it and stores it with the order)
 * @param units     a new sale's units, else 0
 * @param node      who answered, when known (the {@code X-Served-By}-like header, or the admin listener used)
 * @param contract  why the answer is not one the OpenAPI document describes (the test kit's {@code ApiContract}),
 *                  null when it is or when none came
 */
public record Op(long id, OpKind kind, String requestId, long saleId, long userId, int units, long startMillis,
                 long endMillis, int status, String code, String orderId, String node, String contract) {

    /** Whether the client got an answer at all. */
    public boolean answered() {
        return status != 0;
    }
}
