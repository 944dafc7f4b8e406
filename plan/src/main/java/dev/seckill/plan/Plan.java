package dev.seckill.plan;

import dev.seckill.plan.Costs.Node;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;

/**
 * {@code bin/seckill plan}: the nodes of each kind a target needs from a bench report's measured costs, one hot
 * sale's binding limit, and the report's own figures predicted back with their error (docs/capacity.md). Exit 0 with
 * a plan, 1 with one line when the report or the target cannot give one, 2 on a bad option.
 */
@Command(name = "bin/seckill plan", sortOptions = false, showDefaultValues = true, mixinStandardHelpOptions = true,
        description = "The nodes of each kind a target needs, from the costs a default bench run measured.")
public final class Plan implements Callable<Integer> {

    @Option(names = "--report", description = "a default bench run's report.json (default: the bench's last one)")
    Path report;
    @Option(names = "--clicks", defaultValue = "1000000", description = "clicks per second in all")
    double clicks;
    @Option(names = "--units-per-second", defaultValue = "50000", description = "units sold per second, all sales")
    double units;
    @Option(names = "--sales", defaultValue = "10", description = "sales running at once")
    int sales;
    @Option(names = "--hot-sale-units", defaultValue = "1000000", description = "units of the one hot sale")
    double hotSaleUnits;
    @Option(names = "--page-loads", defaultValue = "0.3", description = "share of the clicks: sale pages and "
            + "assets from the edge's cache")
    double pageLoads;
    @Option(names = "--line-polls", defaultValue = "0.2", description = "share: waiting-room polls (the edge's)")
    double linePolls;
    @Option(names = "--status-polls", defaultValue = "0.05", description = "share: order-status reads")
    double statusPolls;
    @Option(names = "--headroom", defaultValue = "0.75", description = "the share of a node's capacity planned on")
    double headroom;
    @Option(names = "--node-cores", defaultValue = "8", description = "cores of each node (Redis: one a shard)")
    int nodeCores;
    @Option(names = "--cluster-run", description = "the --out directory of a bin/seckill bench --cluster run: its "
            + "cluster's flash sale predicted from its single stack's, at --report's costs")
    Path clusterRun;

    private final PrintStream out;

    Plan(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    static int run(PrintStream out, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(new Plan(out));
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof PlanException) {
                err.println("plan: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        cli.setErr(new java.io.PrintWriter(err, true));
        return cli.execute(args);
    }

    @Override
    public Integer call() {
        if (report == null) {
            throw new PlanException("no bench report: run bin/seckill bench, or give --report FILE");
        }
        if (!Files.isRegularFile(report)) {
            throw new PlanException("no bench report at " + report + ": run bin/seckill bench, or give --report FILE");
        }
        Costs costs = Costs.read(report);
        Target target = new Target(clicks, units, sales, hotSaleUnits, pageLoads, linePolls, statusPolls, headroom,
                nodeCores);
        Sizing s = Sizing.of(costs, target);
        List<Prediction> checks = new java.util.ArrayList<>(Prediction.single(costs));
        if (clusterRun != null) {
            checks.add(Prediction.cluster(costs, Costs.json(clusterRun.resolve("cluster/report.json")),
                    Costs.json(clusterRun.resolve("single/report.json")), clusterRun.toString()));
        }
        print(s, checks);
        return 0;
    }

    private void print(Sizing s, List<Prediction> checks) {
        Target t = s.target();
        Costs c = s.costs();
        out.printf("Seckill capacity plan%n%n");
        out.printf("report: %s (%s, %d cores)%n", c.source(), c.machine(), c.cores());
        out.printf("target: %,.0f clicks/s (page loads %.0f %%, waiting-room polls %.0f %%, order-status polls "
                        + "%.0f %%, purchase clicks %.0f %%), %,.0f units/s over %d sales; nodes of %d cores kept at "
                        + "%.0f %%%n%n",
                t.clicks(), 100 * t.pageLoads(), 100 * t.linePolls(), 100 * t.statusPolls(),
                100 * t.purchaseClicks() / t.clicks(), t.unitsPerSecond(), t.sales(), t.nodeCores(),
                100 * t.headroom());
        Sizing.Flows f = s.flows();
        out.printf("requests/s: answered by the edge %,.0f; purchases answered by the service %,.0f (%.2f a sold "
                        + "unit); orders %,.0f; order-status reads %,.0f%n%n", f.edgeAnswered(), f.serviceAnswered(),
                c.answersPerOrder(), f.orders(), f.statusPolls());
        out.printf("CPU µs per request, by node (measured):%n");
        out.printf("  %-28s %8s %8s %8s %8s %8s %8s%n", "", "edge", "service", "redis", "kafka", "writer", "db");
        costs(out, "answered by the edge", c.edgeAnswer());
        costs(out, "purchase the service answers", c.serviceAnswer());
        costs(out, "an order, after its answer", c.order());
        costs(out, "order-status read (estimate)", c.statusPoll());
        out.printf("%nnodes:%n");
        for (Sizing.Kind k : s.kinds()) {
            out.printf("  %-36s %6d   %s%n", k.name(), k.nodes(), k.how());
        }
        Sizing.Limit h = s.hotSale();
        Costs.OneSale one = c.oneSale();
        out.printf("%none sale: one Redis shard %,.0f units/s (a core), one Kafka partition %,.0f (a core), one stock "
                + "row %,.0f (the batch path as measured)%n", h.shardUnits(), h.partitionUnits(), h.rowUnits());
        out.printf("  beside them on the report's machine, its load client sharing the cores: %,.0f script calls/s "
                        + "of one buyer, %.1f buyers a coalesced call; %,.0f records/s into one partition%n",
                one.scriptCallsPerSecond(), one.buyersPerCall(), one.recordsPerSecond());
        out.printf("binding limit: %s, %,.0f units/s; the hot sale of %,.0f units sells at %,.0f units/s, in %,.0f s%n",
                h.binding(), h.bindingUnits(), t.hotSaleUnits(), h.hotUnitsPerSecond(), h.sellOutSeconds());
        OptionalDouble rest = Costs.atRest(c.report());
        out.printf("%nchecked against the report (its machine, every node sharing its cores; %s):%n", rest.isPresent()
                ? String.format("at rest its stack used %.2f cores", rest.getAsDouble())
                : "it has no window at rest, so nothing is taken off");
        for (Prediction p : checks) {
            out.printf("  %-48s predicted %,10.0f  measured %,10.0f  error %+6.1f %%  %s%n", p.what(), p.predicted(),
                    p.measured(), 100 * p.error(), p.close() ? "within 25 %" : "OUTSIDE 25 %");
        }
    }

    private static void costs(PrintStream out, String name, Map<Node, Double> us) {
        out.printf("  %-28s", name);
        for (Node n : List.of(Node.EDGE, Node.SERVICE, Node.REDIS, Node.KAFKA, Node.WRITER, Node.DB)) {
            out.printf(" %8.1f", us.getOrDefault(n, 0.0));
        }
        out.println();
    }
}
