package dev.seckill.writer.batch;

import dev.seckill.event.OrderEvent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides, for each event of a batch, whether it is a new order, a duplicate of one already written, or a record
 * that can never be written, given what the database already holds. Pure logic: the store reads the rows, this
 * class decides, so the rules are unit-tested without a database.
 *
 * <p>Rules, in batch (offset) order: an unknown sale is rejected; an order id seen before (in the DB or earlier
 * in the batch) with the same sale and user is a duplicate, with another sale or user a conflict; a new order id
 * for a (sale, user) that already has an order is a conflict (one per user); anything else is new.
 */
public final class BatchPlan {

    private final Map<Long, List<Integer>> freshBySale;
    private final int duplicates;
    private final List<Rejection> rejections;

    private BatchPlan(Map<Long, List<Integer>> freshBySale, int duplicates, List<Rejection> rejections) {
        this.freshBySale = freshBySale;
        this.duplicates = duplicates;
        this.rejections = rejections;
    }

    /**
     * @param events     the batch, in offset order
     * @param knownSales ids of the batch's sales that exist in the database
     * @param stored     existing orders with an order id or a (sale, user) of the batch
     */
    public static BatchPlan of(List<OrderEvent> events, Set<Long> knownSales, Collection<StoredOrder> stored) {
        Map<Long, SaleUser> ownerOfOrder = new HashMap<>();
        Map<SaleUser, Long> orderOfUser = new HashMap<>();
        for (StoredOrder s : stored) {
            ownerOfOrder.put(s.orderId(), s.saleUser());
            orderOfUser.put(s.saleUser(), s.orderId());
        }
        Map<Long, List<Integer>> fresh = new LinkedHashMap<>();
        List<Rejection> rejections = new ArrayList<>();
        int duplicates = 0;
        for (int i = 0; i < events.size(); i++) {
            OrderEvent e = events.get(i);
            long orderId = e.orderIdValue();
            SaleUser key = new SaleUser(e.saleId(), e.userId());
            if (!knownSales.contains(e.saleId())) {
                rejections.add(new Rejection(i, RejectReason.UNKNOWN_SALE, "sale " + e.saleId() + " does not exist"));
                continue;
            }
            SaleUser owner = ownerOfOrder.get(orderId);
            if (owner != null) {
                if (owner.equals(key)) {
                    duplicates++;
                } else {
                    rejections.add(new Rejection(i, RejectReason.ORDER_CONFLICT, "order id " + orderId
                            + " already belongs to sale " + owner.saleId() + " user " + owner.userId()));
                }
                continue;
            }
            Long other = orderOfUser.get(key);
            if (other != null) {
                rejections.add(new Rejection(i, RejectReason.ORDER_CONFLICT, "user " + e.userId()
                        + " already has order " + other + " in sale " + e.saleId()));
                continue;
            }
            ownerOfOrder.put(orderId, key);
            orderOfUser.put(key, orderId);
            fresh.computeIfAbsent(e.saleId(), s -> new ArrayList<>()).add(i);
        }
        return new BatchPlan(fresh, duplicates, rejections);
    }

    /** Indexes of the new orders per sale, each list in batch order. */
    public Map<Long, List<Integer>> freshBySale() {
        return freshBySale;
    }

    public int duplicates() {
        return duplicates;
    }

    public List<Rejection> rejections() {
        return rejections;
    }
}
