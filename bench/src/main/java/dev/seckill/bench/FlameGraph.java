package dev.seckill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An icicle graph (a flame graph with the root at the top) as SVG: each box is a frame, as wide as the weight of the
 * stacks through it (CPU samples, or milliseconds waited), its children below it. Boxes too narrow to see are left
 * out; each has a tooltip with its weight. Stacks are added root first.
 */
final class FlameGraph {

    private static final int W = 1200;
    private static final int ROW = 16;
    private static final int TOP = 34;
    private static final int MAX_DEPTH = 80;
    private static final double MIN_PX = 0.4;

    private static final class Node {
        final String name;
        double weight;
        final Map<String, Node> children = new LinkedHashMap<>();

        Node(String name) {
            this.name = name;
        }
    }

    private final String title;
    private final String unit;
    private final Node root = new Node("all");
    private int depth;

    FlameGraph(String title, String unit) {
        this.title = title;
        this.unit = unit;
    }

    /** One stack, root frame first, with its weight. */
    void add(List<String> rootFirst, double weight) {
        Node n = root;
        n.weight += weight;
        int d = 0;
        for (String frame : rootFirst) {
            if (++d > MAX_DEPTH) {
                break;
            }
            n = n.children.computeIfAbsent(frame, Node::new);
            n.weight += weight;
        }
        depth = Math.max(depth, d);
    }

    double total() {
        return root.weight;
    }

    String render() {
        int h = TOP + (Math.min(depth, MAX_DEPTH) + 1) * ROW + 10;
        StringBuilder s = new StringBuilder();
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"monospace\" font-size=\"11\">\n", W, h, W, h));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, h));
        s.append(f("<text x=\"10\" y=\"20\" font-family=\"sans-serif\" font-size=\"15\" font-weight=\"bold\">%s "
                + "(%,.0f %s; hover a box for its share)</text>\n", esc(title), root.weight, esc(unit)));
        if (root.weight > 0) {
            box(s, root, 0, W, 0);
        }
        return s.append("</svg>\n").toString();
    }

    private void box(StringBuilder s, Node n, double x, double width, int level) {
        double y = TOP + level * ROW;
        s.append(f("<g><title>%s: %,.0f %s (%.1f %%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>", esc(n.name), n.weight, esc(unit),
                100 * n.weight / root.weight, x, y, width, ROW - 1, color(n.name)));
        int chars = (int) ((width - 4) / 6.6);
        if (chars >= 3) {
            String label = n.name.length() <= chars ? n.name : n.name.substring(0, chars - 2) + "..";
            s.append(f("<text x=\"%.1f\" y=\"%.1f\">%s</text>", x + 2, y + ROW - 4, esc(label)));
        }
        s.append("</g>\n");
        List<Node> kids = new ArrayList<>(n.children.values());
        kids.sort((a, b) -> a.name.compareTo(b.name));
        double cx = x;
        for (Node k : kids) {
            double kw = width * k.weight / n.weight;
            if (kw >= MIN_PX) {
                box(s, k, cx, kw, level + 1);
            }
            cx += kw;
        }
    }

    /** Warm colours, one per frame name (stable across runs). */
    private static String color(String name) {
        int h = name.hashCode();
        return f("rgb(%d,%d,%d)", 205 + Math.floorMod(h, 50), 90 + Math.floorMod(h >> 8, 120), 40 + Math.floorMod(h >> 16, 50));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
