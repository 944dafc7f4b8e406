package dev.seckill.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds every Redis key of the service; nobody else concatenates key strings.
 *
 * <p>All keys of one sale share the hash tag {@code {sk:<saleId>}}, so a script that touches a sale's stock,
 * buyers, window and limiter state runs on one Redis Cluster slot (no CROSSSLOT).
 */
public final class Keys {

    private Keys() {
    }

    private static String tag(long saleId) {
        return "{sk:" + saleId + "}";
    }

    /** Remaining units (integer). */
    public static String stock(long saleId) {
        return tag(saleId) + ":stock";
    }

    /** Hash userId -> orderId of every buyer. */
    public static String buyers(long saleId) {
        return tag(saleId) + ":buyers";
    }

    /**
     * Set of the order ids whose unit an expiry gave back (release.lua). Their buyers keep their marks, so live
     * buyers = buyers - returned.
     */
    public static String returned(long saleId) {
        return tag(saleId) + ":returned";
    }

    /**
     * Hash userId -> "orderId:ms" of the buyers whose order's send to Kafka failed, with when its last send attempt
     * began: the unit stays held, a retry resends that order, reconcile releases it only once that send is settled.
     */
    public static String unsent(long saleId) {
        return tag(saleId) + ":unsent";
    }

    /**
     * Sorted set of the order ids that confirm.lua found unreserved after a purchase.lua call's answer was lost, by
     * when (ms): their attempts answered 503 holding nothing, so purchase.lua refuses a late copy of that call.
     * Entries are trimmed, and the key expires, a while after the last fence (see confirm.lua).
     */
    public static String fenced(long saleId) {
        return tag(saleId) + ":fenced";
    }

    /** Hash start, end (epoch ms). */
    public static String meta(long saleId) {
        return tag(saleId) + ":meta";
    }

    /** One user's token bucket in one sale. */
    public static String bucket(long saleId, long userId) {
        return tag(saleId) + ":rl:" + userId;
    }

    /**
     * A used challenge (string, expiring with the challenge), named by its salt; under the sale's tag so that a
     * cluster spreads one sale's records with its other keys.
     */
    public static String usedChallenge(long saleId, String salt) {
        return tag(saleId) + ":pow:" + salt;
    }

    /** KEYS of purchase.lua for one buyer, in its order. */
    public static List<Object> purchase(long saleId, long userId) {
        return purchase(saleId, List.of(userId));
    }

    /** KEYS of purchase.lua, in its order: the sale's shared keys, then each buyer's bucket in the buyers' order. */
    public static List<Object> purchase(long saleId, List<Long> userIds) {
        List<Object> keys = new ArrayList<>(5 + userIds.size());
        keys.add(stock(saleId));
        keys.add(buyers(saleId));
        keys.add(meta(saleId));
        keys.add(unsent(saleId));
        keys.add(fenced(saleId));
        for (long userId : userIds) {
            keys.add(bucket(saleId, userId));
        }
        return keys;
    }

    /** KEYS of compensate.lua, in its order. */
    public static List<Object> compensate(long saleId) {
        return List.of(stock(saleId), buyers(saleId), unsent(saleId));
    }

    /** KEYS of unsent.lua, in its order. */
    public static List<Object> unsentSend(long saleId) {
        return List.of(buyers(saleId), unsent(saleId));
    }

    /** KEYS of sent.lua, in its order. */
    public static List<Object> sent(long saleId) {
        return List.of(unsent(saleId));
    }

    /** KEYS of confirm.lua, in its order. */
    public static List<Object> confirm(long saleId) {
        return List.of(buyers(saleId), fenced(saleId));
    }

    /** KEYS of conserve.lua, in its order. */
    public static List<Object> conserve(long saleId) {
        return List.of(stock(saleId), buyers(saleId), returned(saleId));
    }

    /** KEYS of release.lua, in its order. */
    public static List<Object> release(long saleId) {
        return List.of(stock(saleId), buyers(saleId), returned(saleId), unsent(saleId));
    }

    /** KEYS of preheat.lua, in its order. */
    public static List<Object> preheat(long saleId) {
        return List.of(stock(saleId), meta(saleId));
    }

    /** A sale's line: hash of its progress (line_advance.lua). */
    public static String line(long saleId) {
        return tag(saleId) + ":line";
    }

    /** Hash userId -> place of everyone in a sale's line. */
    public static String linePlaces(long saleId) {
        return tag(saleId) + ":line:places";
    }

    /** Sorted set of a sale's pre-queue, scored by each buyer's random number. */
    public static String linePrequeue(long saleId) {
        return tag(saleId) + ":line:pre";
    }

    /** List of the admission steps of a sale's line, oldest first. */
    public static String lineSteps(long saleId) {
        return tag(saleId) + ":line:steps";
    }

    /** KEYS of line_join.lua, in its order. */
    public static List<Object> lineJoin(long saleId) {
        return List.of(line(saleId), linePlaces(saleId), linePrequeue(saleId), buyers(saleId));
    }

    /** KEYS of line_advance.lua, in its order. */
    public static List<Object> lineAdvance(long saleId) {
        return List.of(line(saleId), linePrequeue(saleId), lineSteps(saleId), stock(saleId), buyers(saleId),
                returned(saleId));
    }

    /** Counter that hands each service instance its order-id node number. */
    public static String nodeSequence() {
        return "seckill:node-seq";
    }
}
