package dev.seckill.check;

/** What a client of the workload asked for. */
public enum OpKind {
    /** {@code POST /api/sales/{id}/purchase} through the load balancer. */
    PURCHASE,
    /** {@code POST /api/orders/{orderId}/pay} through the load balancer. */
    PAY,
    /** A sale created on an admin listener ({@code units} = its stock). */
    CREATE_SALE
}
