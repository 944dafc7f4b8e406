package dev.seckill.plan;

import dev.seckill.plan.Costs.Node;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes of each kind a {@link Target} needs at the {@link Costs} a bench measured (docs/capacity.md, "The
 * method"): each kind's CPU demand is the sum over the kinds of clicks of (clicks/s x its CPU per click); its nodes
 * that demand over (cores x headroom), with the topology's minimum (two of every stateless part, three Redis masters
 * and three brokers). Kafka's demand counts each record three times (replication factor 3); Redis's and the
 * database's include no replica (each has one, applying what its primary did).
 */
public record Sizing(Target target, Costs costs, Flows flows, List<Kind> kinds, Limit hotSale) {

    /** Requests per second by who answers them. */
    public record Flows(double edgeAnswered, double serviceAnswered, double orders, double statusPolls) {
    }

    /** One kind of node: its CPU demand in cores, how many nodes it takes, and how the count was reached. */
    public record Kind(String name, double cores, int nodes, String how) {
    }

    /** One sale's ceilings (units/s, a core each), the one that binds, and the hot sale's pace under it. */
    public record Limit(double shardUnits, double partitionUnits, double rowUnits, String binding,
                        double bindingUnits, double hotUnitsPerSecond, double sellOutSeconds) {
    }

    static final int REPLICATION = 3;

    public static Sizing of(Costs c, Target t) {
        double serviceAnswered = Math.min(t.purchaseClicks(), t.unitsPerSecond() * c.answersPerOrder());
        Flows f = new Flows(t.clicks() * (t.pageLoads() + t.linePolls()) + t.purchaseClicks() - serviceAnswered,
                serviceAnswered, t.unitsPerSecond(), t.clicks() * t.statusPolls());
        Map<Node, Double> cores = new EnumMap<>(Node.class);
        for (Node n : Node.values()) {
            cores.put(n, (f.edgeAnswered() * c.edgeAnswer().getOrDefault(n, 0.0)
                    + f.serviceAnswered() * c.serviceAnswer().getOrDefault(n, 0.0)
                    + f.orders() * c.order().getOrDefault(n, 0.0)
                    + f.statusPolls() * c.statusPoll().getOrDefault(n, 0.0)) / 1e6);
        }
        double node = t.nodeCores() * t.headroom();
        List<Kind> kinds = new ArrayList<>();
        kinds.add(stateless("edges", cores.get(Node.EDGE), node, t));
        kinds.add(stateless("services", cores.get(Node.SERVICE), node, t));
        int shards = Math.max(3, ceil(cores.get(Node.REDIS) / t.headroom()));
        kinds.add(new Kind("Redis masters (+ a replica each)", cores.get(Node.REDIS), shards, String.format(
                "%.1f cores / (1 core a shard x %.2f), at least 3", cores.get(Node.REDIS), t.headroom())));
        double kafka = cores.get(Node.KAFKA) * REPLICATION;
        kinds.add(new Kind("Kafka brokers", kafka, Math.max(3, ceil(kafka / node)), String.format(
                "%.1f cores x %d replicas / (%d cores x %.2f), at least 3", cores.get(Node.KAFKA), REPLICATION,
                t.nodeCores(), t.headroom())));
        Kind writers = stateless("writers", cores.get(Node.WRITER), node, t);
        kinds.add(writers);
        int partitions = Math.max(Math.max(3, t.sales()), writers.nodes());
        kinds.add(new Kind("orders topic partitions", 0, partitions, "at least one a sale (orders are keyed by "
                + "sale) and one a writer, at least 3"));
        double db = cores.get(Node.DB);
        kinds.add(new Kind("MariaDB primaries (+ a replica)", db, Math.max(1, ceil(db / node)), String.format(
                "%.1f cores / (%d cores x %.2f); past one, a primary of more cores or sales split by id",
                db, t.nodeCores(), t.headroom())));
        return new Sizing(t, c, f, kinds, hotSale(c, t));
    }

    private static Kind stateless(String name, double cores, double node, Target t) {
        return new Kind(name, cores, Math.max(2, ceil(cores / node)), String.format(
                "%.1f cores / (%d cores x %.2f), at least 2", cores, t.nodeCores(), t.headroom()));
    }

    /**
     * A sale lives on one shard, one partition and one stock row; whichever decides the fewest units per second
     * binds it. The hot sale sells at the target's pace, or at that limit's headroom if lower.
     */
    static Limit hotSale(Costs c, Target t) {
        Costs.OneSale one = c.oneSale();
        String binding = "one Redis shard";
        double units = one.shardUnits();
        if (one.partitionUnits() < units) {
            binding = "one Kafka partition";
            units = one.partitionUnits();
        }
        if (one.rowUnits() < units) {
            binding = "one stock row (the writer's batch path)";
            units = one.rowUnits();
        }
        double hot = Math.min(t.unitsPerSecond(), units * t.headroom());
        return new Limit(one.shardUnits(), one.partitionUnits(), one.rowUnits(), binding, units, hot,
                t.hotSaleUnits() / hot);
    }

    static int ceil(double x) {
        return (int) Math.ceil(x - 1e-9);
    }
}
