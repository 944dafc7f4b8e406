package dev.seckill.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.plan.Costs.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plan's method turned back on the machine that measured it: every node of one kind (or the cluster's several)
 * and the load client sharing its cores, CPU-bound, what rate do the costs predict, against what the bench measured
 * (docs/capacity.md, "Checked against measurement"). The flash sale is predicted from the large sale's and the
 * smallest flood's costs, each flood level from the costs of the one below it; the large sale from its own costs,
 * which checks only that it ran CPU-bound.
 */
public record Prediction(String what, String measuredAs, double predicted, double measured) {

    /** (predicted - measured) / measured. */
    public double error() {
        return (predicted - measured) / measured;
    }

    /** Within the +-25 % the plan is held to. */
    public boolean close() {
        return Math.abs(error()) <= 0.25;
    }

    /**
     * The single stack's figures, from the report the costs came from: the cores left for requests are the
     * machine's less what its stack spends anyway (at rest before the flash sale; during a flood, what the parts it
     * does not reach spent at the level below).
     */
    public static List<Prediction> single(Costs c) {
        JsonNode r = c.report();
        List<Prediction> out = new ArrayList<>();
        JsonNode flash = r.path("flashSale");
        if (flash.has("rps")) {
            Costs.Flood edge = c.floods().getFirst();
            double requests = flash.path("requests").asDouble();
            double us = perAnswer(c, flash, edge.perAnswer(), 0, 0);
            out.add(new Prediction(String.format("flash sale, answers/s (edge's answers at %,d connections' cost)",
                    edge.connections()), "flashSale.rps", (c.cores() - Costs.atRest(r).orElse(0)) * 1e6 / us,
                    flash.path("rps").asDouble()));
        }
        for (int i = 1; i < c.floods().size(); i++) {
            Costs.Flood from = c.floods().get(i - 1);
            Costs.Flood level = c.floods().get(i);
            out.add(new Prediction(String.format("sold-out flood at %,d connections, from %,d's cost, answers/s",
                    level.connections(), from.connections()), "floods[].measured.rps",
                    (c.cores() - from.backgroundCores()) * 1e6 / sum(from.perAnswer()), level.rps()));
        }
        for (JsonNode run : r.path("largeSale").path("runs")) {
            if ("through the edge".equals(run.path("route").asText())) {
                double us = c.answersPerOrder() * sum(c.serviceAnswer()) + sum(c.order());
                out.add(new Prediction("large sale through the edge, units/s", "largeSale.runs[].unitsPerSecond",
                        c.cores() * 1e6 / us, run.path("unitsPerSecond").asDouble()));
            }
        }
        return out;
    }

    /**
     * A {@code bin/seckill bench --cluster} run's cluster flash sale from its single-stack flash sale (the same
     * scenario, the same run, the same cold start): the single's answers/s x its CPU per answer / the cluster's, each
     * at the costs of {@code c}, the cluster's adding the load balancer's proxying (the edge's CPU per proxied
     * trivial request), a Redis replica applying each script's writes and two Kafka followers a record; x the cores
     * each had beyond its stack at rest.
     */
    public static Prediction cluster(Costs c, JsonNode cluster, JsonNode single, String source) {
        JsonNode flash = cluster.path("flashSale");
        JsonNode alone = single.path("flashSale");
        if (!flash.has("rps") || !alone.has("rps")) {
            throw new PlanException(source + " has no cluster/report.json and single/report.json with a flash sale "
                    + "each: give the --out directory of a bin/seckill bench --cluster run");
        }
        Map<Node, Double> edge = c.floods().getFirst().perAnswer();
        double lb = c.statusPoll().getOrDefault(Node.EDGE, 0.0);
        double replica = c.serviceAnswer().getOrDefault(Node.REDIS, 0.0);
        double followers = (Sizing.REPLICATION - 1) * c.order().getOrDefault(Node.KAFKA, 0.0);
        double one = perAnswer(c, alone, edge, 0, 0);
        double many = perAnswer(c, flash, edge, replica, followers) + lb;
        double cores = c.cores();
        double room = (cores - Costs.atRest(cluster).orElse(0)) / (cores - Costs.atRest(single).orElse(0));
        return new Prediction("cluster flash sale, answers/s, from the single stack's in the same run",
                "cluster/report.json flashSale.rps", alone.path("rps").asDouble() * one / many * room,
                flash.path("rps").asDouble());
    }

    /** A flash sale's CPU per answer at these costs, with what each service answer and each order add. */
    private static double perAnswer(Costs c, JsonNode flash, Map<Node, Double> edge, double perServiceAnswer,
                                    double perOrder) {
        double requests = flash.path("requests").asDouble();
        double byEdge = flash.path("edgeShortCircuits").asDouble() + flash.path("edgeRateLimited").asDouble();
        double accepted = flash.path("accepted").asDouble();
        return (byEdge * sum(edge) + (requests - byEdge) * (sum(c.serviceAnswer()) + perServiceAnswer)
                + accepted * (sum(c.order()) + perOrder)) / requests;
    }

    private static double sum(Map<Node, Double> us) {
        return us.values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
