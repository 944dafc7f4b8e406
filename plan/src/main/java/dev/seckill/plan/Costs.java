package dev.seckill.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one default bench run's report.json measured that a plan needs, per kind of click and kind of node, in CPU
 * microseconds (docs/capacity.md, "The costs"):
 * <ul>
 *   <li>{@code edgeAnswer}: a click the edge answers itself, from the sold-out flood of the most connections (a
 *   million clicks come over many);</li>
 *   <li>{@code serviceAnswer}: a purchase the edge admits and the service answers, from the large sale through the
 *   edge (its edge, service and Redis CPU over the answers that reached the service);</li>
 *   <li>{@code order}: what an accepted order adds after its answer (Kafka, writer, MariaDB), from the same sale;</li>
 *   <li>{@code statusPoll}: an order-status read, the proxied trivial request's edge and service plus a row of the
 *   batch path's MariaDB (an estimate: the bench does not poll orders).</li>
 * </ul>
 * The load client's CPU per answer of each kind is kept apart ({@link Node#CLIENT}): the report's machine ran it
 * too, a plan has none. A report without these sections is no default run, and says so in one line.
 */
public record Costs(String source, String machine, int cores, Map<Node, Double> edgeAnswer,
                    Map<Node, Double> serviceAnswer, Map<Node, Double> order, Map<Node, Double> statusPoll,
                    double answersPerOrder, OneSale oneSale, List<Flood> floods, JsonNode report) {

    /**
     * A sold-out flood level: its connections, answers/s, the edge's and the client's CPU per answer (its client
     * processes count as the bench's or as others', as the sampler saw them start and stop: both are the client's)
     * and the cores the other parts spent meanwhile, which the flood does not reach: their background.
     */
    public record Flood(int connections, double rps, Map<Node, Double> perAnswer, double backgroundCores) {
    }

    /** The window of report.json's {@code cpu} list with each part's cores at rest, before the flash sale. */
    static final String AT_REST = "at rest, before the flash sale";

    /**
     * The cores a report's stack spent at rest (every part, the load client and others, idle aside), or empty when
     * the report has no such window (a report of an earlier bench).
     */
    static OptionalDouble atRest(JsonNode report) {
        for (JsonNode w : report.path("cpu")) {
            if (AT_REST.equals(w.path("window").asText())) {
                double busy = 0;
                for (Map.Entry<String, JsonNode> c : w.path("cores").properties()) {
                    busy += "idle".equals(c.getKey()) ? 0 : c.getValue().asDouble();
                }
                return OptionalDouble.of(busy);
            }
        }
        return OptionalDouble.empty();
    }

    /** The nodes a plan counts, as report.json names their CPU, and the load client. */
    public enum Node {
        EDGE("edge"), SERVICE("service"), REDIS("redis"), KAFKA("kafka"), WRITER("writer"), DB("db"),
        CLIENT("bench");

        final String key;

        Node(String key) {
            this.key = key;
        }
    }

    /**
     * One sale lives on one Redis shard (its keys share a hash tag), one partition of the orders topic (keyed by sale)
     * and one stock row. Its ceilings in units/s: the shard's, a core over Redis's CPU per accepted order in the large
     * sale (Redis runs its scripts on one thread; coalesced calls and the refusals it answered included); the
     * partition's, a core over the broker's CPU per record produced and acknowledged (a partition's log is appended
     * in order); the row's, the rows/s the writer's batch path wrote as measured (one writer at a time writes a
     * partition's batches, and MariaDB spends more than a core on them). Beside them, what this machine measured
     * with its load client sharing the cores: redis-benchmark's purchase-script calls/s of one buyer, the hot sale's
     * buyers per coalesced call, records/s into one partition.
     */
    public record OneSale(double shardUnits, double partitionUnits, double rowUnits, double scriptCallsPerSecond,
                          double buyersPerCall, double recordsPerSecond) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String TRIVIAL = "a proxied trivial request";
    static final String RECORD = "a Kafka record produced and acknowledged";
    static final String ROW = "a row written (batch path)";

    public static Costs read(Path file) {
        return of(file.toString(), json(file));
    }

    /** A file's JSON, or one line for the person who gave it: unreadable, or not JSON (where, and why). */
    static JsonNode json(Path file) {
        try {
            return JSON.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new PlanException(file + " is not JSON (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage() + "): give a bench report.json");
        } catch (IOException e) {
            throw new PlanException("cannot read the bench report " + file + ": "
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }

    static Costs of(String source, JsonNode r) {
        if (r == null || !r.isObject() || !r.has("machine")) {
            throw new PlanException(source + " is not a bench report.json (no machine): run bin/seckill bench");
        }
        JsonNode large = need(r, source, "largeSale", "the large sale").path("runs");
        JsonNode viaEdge = null;
        for (JsonNode run : large) {
            if ("through the edge".equals(run.path("route").asText())) {
                viaEdge = run;
            }
        }
        if (viaEdge == null) {
            throw missing(source, "the large sale through the edge");
        }
        List<Flood> floods = floods(r, source);
        JsonNode parts = viaEdgeParts(r, source);
        double accepted = viaEdge.path("accepted").asDouble();
        double byService = viaEdge.path("answers").asDouble() - edgeAnswered(viaEdge.path("byKind"));
        if (accepted <= 0 || byService <= 0) {
            throw new PlanException(source + ": the large sale through the edge accepted no order");
        }
        Map<Node, Double> serviceAnswer = new EnumMap<>(Node.class);
        Map<Node, Double> order = new EnumMap<>(Node.class);
        perUnit(viaEdge.path("cpu").path("microsPerUnit")).forEach((n, us) -> {
            switch (n) {
                case KAFKA, WRITER, DB -> order.put(n, us);
                default -> serviceAnswer.put(n, us * accepted / byService);
            }
        });
        Map<Node, Double> edgeAnswer = floods.getLast().perAnswer();
        JsonNode trivial = part(parts, source, TRIVIAL);
        JsonNode row = part(parts, source, ROW);
        Map<Node, Double> status = new EnumMap<>(Node.class);
        status.put(Node.EDGE, trivial.path("microsPerUnit").path("edge").asDouble());
        status.put(Node.SERVICE, trivial.path("microsPerUnit").path("service").asDouble());
        status.put(Node.DB, row.path("microsPerUnit").path("db").asDouble());
        status.put(Node.CLIENT, trivial.path("microsPerUnit").path(Node.CLIENT.key).asDouble());
        JsonNode m = r.path("machine");
        return new Costs(source, m.path("cpu").asText() + ", " + m.path("date").asText(), m.path("cores").asInt(2),
                edgeAnswer, serviceAnswer, order, status, byService / accepted,
                oneSale(r, source, parts, perUnit(viaEdge.path("cpu").path("microsPerUnit")).get(Node.REDIS)), floods,
                r);
    }

    /** The ceilings of one sale (see {@link OneSale}). */
    private static OneSale oneSale(JsonNode r, String source, JsonNode parts, double redisPerOrder) {
        double callsPerSecond = 0;
        for (JsonNode c : need(r, source, "ceilings", "the ceilings").path("redis")) {
            callsPerSecond = Math.max(callsPerSecond, c.path("rps").asDouble());
        }
        double perCall = 0;
        for (JsonNode run : need(r, source, "hotSale", "the hot sale").path("runs")) {
            if ("coalescing".equals(run.path("mode").asText())) {
                perCall = run.path("attemptsPerCall").asDouble();
            }
        }
        if (callsPerSecond <= 0 || perCall <= 0) {
            throw missing(source, "the purchase script's calls/s (ceilings) and buyers per call (hot sale)");
        }
        JsonNode record = part(parts, source, RECORD).path("microsPerUnit");
        return new OneSale(1e6 / redisPerOrder, 1e6 / record.path("kafka").asDouble(),
                rate(part(parts, source, ROW)), callsPerSecond, perCall, rate(part(parts, source, RECORD)));
    }

    private static double rate(JsonNode part) {
        return part.path("units").asDouble() / part.path("seconds").asDouble();
    }

    private static Map<Node, Double> perUnit(JsonNode microsPerUnit) {
        Map<Node, Double> us = new EnumMap<>(Node.class);
        for (Node n : Node.values()) {
            us.put(n, microsPerUnit.path(n.key).asDouble());
        }
        return us;
    }

    /** Answers the edge gave itself (its 429s and the sold-out flag's 410s) among a run's answers by kind. */
    static double edgeAnswered(JsonNode byKind) {
        double n = 0;
        for (Map.Entry<String, JsonNode> e : byKind.properties()) {
            if (e.getKey().endsWith("(edge)")) {
                n += e.getValue().asDouble();
            }
        }
        return n;
    }

    /** The flood levels, fewest connections first. */
    private static List<Flood> floods(JsonNode r, String source) {
        List<Flood> floods = new ArrayList<>();
        for (JsonNode level : need(r, source, "floods", "the sold-out flood")) {
            JsonNode us = level.path("cpu").path("microsPerUnit");
            // The flood reaches no other part but for a flag re-check an interval: their CPU meanwhile is their own
            // background, which does not grow with the edge's answers.
            Map<Node, Double> perAnswer = new EnumMap<>(Node.class);
            perAnswer.put(Node.EDGE, us.path(Node.EDGE.key).asDouble());
            perAnswer.put(Node.CLIENT, us.path(Node.CLIENT.key).asDouble() + us.path("others").asDouble());
            if (perAnswer.get(Node.EDGE) <= 0) {
                throw missing(source, "the sold-out flood's CPU per answer (floods[].cpu, measured since 6 December "
                        + "2026)");
            }
            double rps = level.path("measured").path("rps").asDouble();
            double others = 0;
            for (Node n : List.of(Node.SERVICE, Node.REDIS, Node.KAFKA, Node.WRITER, Node.DB)) {
                others += us.path(n.key).asDouble();
            }
            floods.add(new Flood(level.path("connections").asInt(), rps, perAnswer, others * rps / 1e6));
        }
        if (floods.isEmpty()) {
            throw missing(source, "a sold-out flood level");
        }
        floods.sort(Comparator.comparingInt(Flood::connections));
        return floods;
    }

    private static JsonNode viaEdgeParts(JsonNode r, String source) {
        JsonNode parts = r.path("largeSale").path("parts").path("parts");
        if (!parts.isArray() || parts.isEmpty()) {
            throw missing(source, "the large sale's part costs");
        }
        return parts;
    }

    private static JsonNode part(JsonNode parts, String source, String name) {
        for (JsonNode p : parts) {
            if (name.equals(p.path("window").asText())) {
                return p;
            }
        }
        throw missing(source, "the part cost \"" + name + "\"");
    }

    private static JsonNode need(JsonNode r, String source, String key, String what) {
        JsonNode n = r.path(key);
        if (n.isMissingNode() || n.isNull()) {
            throw missing(source, what + " (" + key + ")");
        }
        return n;
    }

    private static PlanException missing(String source, String what) {
        return new PlanException(source + " lacks " + what + ": plan from a default bench run's report "
                + "(bin/seckill bench)");
    }
}
