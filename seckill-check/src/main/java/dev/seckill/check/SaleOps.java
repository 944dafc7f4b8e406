package dev.seckill.check;


import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The operations of one sale: its purchases (by buyer), and the pays of any order (by order id). */
final class SaleOps {

    private final List<Op> purchases;
    private final Map<Long, List<Op>> byUser;
    private final Map<String, List<Op>> pays;

    SaleOps(List<Op> purchases, Map<String, List<Op>> pays) {
        this.purchases = purchases;
        this.byUser = purchases.stream().collect(Collectors.groupingBy(Op::userId));
        this.pays = pays;
    }

    List<Op> purchases() {
        return purchases;
    }

    Set<Long> users() {
        return byUser.keySet();
    }

    /** A buyer's purchases, in the history's order. */
    List<Op> of(long userId) {
        return byUser.getOrDefault(userId, List.of());
    }

    /** The purchases whose answer names the order, and the pays of it. */
    List<Op> naming(String orderId) {
        return Stream.concat(purchases.stream().filter(o -> orderId.equals(o.orderId())),
                pays.getOrDefault(orderId, List.of()).stream()).toList();
    }

    /** {@link #naming} of each order. */
    List<Op> naming(Collection<FinalOrder> rows) {
        return rows.stream().flatMap(r -> naming(r.id()).stream()).toList();
    }

    /** A 202, or a 503 that names the order holding the buyer's unit: each says the order is the buyer's. */
    static boolean grants(Op op) {
        return op.kind() == OpKind.PURCHASE && op.orderId() != null && (op.status() == 202 || op.status() == 503);
    }

    static boolean alreadyPurchased(Op op) {
        return op.kind() == OpKind.PURCHASE && op.status() == 409 && "ALREADY_PURCHASED".equals(op.code());
    }
}
