package dev.seckill.bench;

import dev.seckill.testkit.Stack;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/seckill bench --protection} (issue 15): after the flash sale, what protected sales cost and what they
 * do to the first seconds of a sale. Bounded: {@code rounds} x 4 measurements of {@code ceilingTime}, about 2^23
 * hashes of solving on one core, and two sales of at most {@link #MAX_SHOPPERS} shoppers of at most 30 s each.
 */
final class ProtectionBench {

    /** The solve-time table stops here: beyond it each row costs seconds of one core and says nothing new. */
    static final int MAX_BITS = 16;
    static final int MAX_SHOPPERS = 500;

    private ProtectionBench() {
    }

    /** The section for the report, and the sales it made (to be checked like the flash sale). */
    record Run(ProtectionSection section, List<Ceilings.PurchaseSale> sales) {
    }

    static Run run(Stack stack, Admin admin, Users users, BenchOptions o, Sampler sampler) throws Exception {
        sampler.mark("protection");
        PathCost.Result cost = new PathCost(stack, admin, users, o).run();
        List<Ratio> ratios = List.of(Ratio.of(cost.rounds(), PathCost.GUARDED, PathCost.PLAIN),
                Ratio.of(cost.rounds(), PathCost.GUARDED_REFUSED, PathCost.PLAIN_REFUSED));
        Bench.say("protection: a bot's solve time per difficulty, up to " + MAX_BITS + " bits");
        List<ProtectionCosts.SolveTime> solves = ProtectionCosts.solveTimes(MAX_BITS);
        ProtectionCosts.GateCost gate = ProtectionCosts.gateCost();
        ArrivalCurve curve = new ArrivalCurve(stack, admin, users);
        ArrivalCurve.Result arrival = curve.run(Math.min(users.size(), MAX_SHOPPERS));
        List<Ceilings.PurchaseSale> sales = new ArrayList<>(cost.sales());
        sales.addAll(curve.sales());
        return new Run(new ProtectionSection(cost.rounds(), ratios, solves, gate, arrival), sales);
    }
}
