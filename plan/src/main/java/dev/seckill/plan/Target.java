package dev.seckill.plan;

/**
 * What a plan is for: clicks per second in all, units sold per second over {@code sales} sales running at once, and
 * the traffic mix (shares of the clicks; purchase clicks are the rest); each node kind kept at {@code headroom} of
 * its measured capacity, on nodes of {@code nodeCores} cores (Redis: one core per shard, its script runs on one
 * thread).
 */
public record Target(double clicks, double unitsPerSecond, int sales, double hotSaleUnits, double pageLoads,
                     double linePolls, double statusPolls, double headroom, int nodeCores) {

    public Target {
        if (clicks <= 0 || unitsPerSecond <= 0 || sales < 1 || hotSaleUnits <= 0 || nodeCores < 1) {
            throw new PlanException("the clicks, units per second, sales, hot sale's units and node cores must be "
                    + "positive");
        }
        if (headroom <= 0 || headroom > 1) {
            throw new PlanException("the headroom is a share of a node's capacity, above 0 and at most 1: " + headroom);
        }
        if (pageLoads < 0 || linePolls < 0 || statusPolls < 0 || pageLoads + linePolls + statusPolls > 1) {
            throw new PlanException("the page-load, line-poll and status-poll shares must be at least 0 and add up to "
                    + "at most 1 (purchase clicks are the rest)");
        }
    }

    /** Clicks per second on a purchase button (the mix's rest). */
    double purchaseClicks() {
        return clicks * (1 - pageLoads - linePolls - statusPolls);
    }
}
