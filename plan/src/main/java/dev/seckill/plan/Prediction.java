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

    /** The single stack's figures, from the report the costs came from. */
    public static List<Prediction> single(Costs c) {
        JsonNode r = c.report();
        double cpu = c.cores() * 1e6;
        List<Prediction> out = new ArrayList<>();
        JsonNode flash = r.path("flashSale");
        if (flash.has("rps")) {
            double requests = flash.path("requests").asDouble();
            double byEdge = flash.path("edgeShortCircuits").asDouble() + flash.path("edgeRateLimited").asDouble();
            double accepted = flash.path("accepted").asDouble();
            Map<Node, Double> edge = c.floods().getFirst().perAnswer();
            double us = byEdge * sum(edge) + (requests - byEdge) * sum(c.serviceAnswer()) + accepted * sum(c.order());
            out.add(new Prediction(String.format("flash sale, answers/s (edge's answers at %,d connections' cost)",
                    c.floods().getFirst().connections()), "flashSale.rps", requests * cpu / us,
                    flash.path("rps").asDouble()));
        }
        for (int i = 1; i < c.floods().size(); i++) {
            Costs.Flood from = c.floods().get(i - 1);
            Costs.Flood level = c.floods().get(i);
            out.add(new Prediction(String.format("sold-out flood at %,d connections, from %,d's cost, answers/s",
                    level.connections(), from.connections()), "floods[].measured.rps", cpu / sum(from.perAnswer()),
                    level.rps()));
        }
        for (JsonNode run : r.path("largeSale").path("runs")) {
            if ("through the edge".equals(run.path("route").asText())) {
                double us = c.answersPerOrder() * sum(c.serviceAnswer()) + sum(c.order());
                out.add(new Prediction("large sale through the edge, units/s", "largeSale.runs[].unitsPerSecond",
                        cpu / us, run.path("unitsPerSecond").asDouble()));
            }
        }
        return out;
    }

    /**
     * A cluster run's flash sale (bin/seckill bench --cluster: its cluster/report.json) from the single stack's
     * costs, with what the cluster adds per request: the load balancer's proxying (the edge's CPU per proxied trivial
     * request), a Redis replica applying each purchase script's writes, two Kafka followers copying each record.
     */
    public static Prediction cluster(Costs c, JsonNode cluster, String source) {
        JsonNode flash = cluster.path("flashSale");
        if (!flash.has("rps")) {
            throw new PlanException(source + " has no flash sale (flashSale): give the cluster/report.json of a "
                    + "bin/seckill bench --cluster run");
        }
        double requests = flash.path("requests").asDouble();
        double byEdge = flash.path("edgeShortCircuits").asDouble() + flash.path("edgeRateLimited").asDouble();
        double accepted = flash.path("accepted").asDouble();
        double lb = c.statusPoll().getOrDefault(Node.EDGE, 0.0);
        double service = sum(c.serviceAnswer()) + c.serviceAnswer().getOrDefault(Node.REDIS, 0.0);
        double order = sum(c.order()) + (Sizing.REPLICATION - 1) * c.order().getOrDefault(Node.KAFKA, 0.0);
        double us = requests * lb + byEdge * sum(c.edgeAnswer()) + (requests - byEdge) * service + accepted * order;
        int cores = cluster.path("machine").path("cores").asInt(c.cores());
        return new Prediction("cluster flash sale, answers/s", "cluster flashSale.rps", requests * cores * 1e6 / us,
                flash.path("rps").asDouble());
    }

    private static double sum(Map<Node, Double> us) {
        return us.values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
