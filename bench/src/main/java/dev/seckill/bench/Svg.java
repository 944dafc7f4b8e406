package dev.seckill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Small SVG charts written from data: stacked areas (answers per second by outcome) and lines (latency
 * percentiles, memory), on a linear or log10 y axis, with optional vertical markers (e.g. the sell-out).
 */
final class Svg {

    // The eighth is grey: the CPU chart's "others" (everything outside the bench) falls there.
    private static final String[] COLORS = {"#2b8a3e", "#1971c2", "#e8590c", "#c2255c", "#7048e8", "#f08c00",
            "#0c8599", "#adb5bd", "#862e9c", "#495057"};
    private static final int W = 900;
    private static final int H = 360;
    private static final int LEFT = 70;
    private static final int RIGHT = 190;
    private static final int TOP = 36;
    private static final int BOTTOM = 46;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final double[] xs;
    private final Map<String, double[]> series = new LinkedHashMap<>();
    private final Map<String, Double> markers = new LinkedHashMap<>();
    private boolean stacked;
    private boolean logY;

    Svg(String title, String xLabel, String yLabel, double[] xs) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.xs = xs;
    }

    Svg series(String name, double[] ys) {
        series.put(name, ys);
        return this;
    }

    Svg marker(String name, double x) {
        markers.put(name, x);
        return this;
    }

    Svg stacked() {
        stacked = true;
        return this;
    }

    Svg logY() {
        logY = true;
        return this;
    }

    String render() {
        List<double[]> tops = new ArrayList<>();
        double[] base = new double[xs.length];
        for (double[] ys : series.values()) {
            double[] top = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                top[i] = (stacked ? base[i] : 0) + ys[i];
            }
            tops.add(top);
            if (stacked) {
                base = top;
            }
        }
        // The axis covers the data and every marker (a writer that drains after the last answer is still drawn).
        double xMax = xs.length == 0 ? 1e-9 : Math.max(xs[xs.length - 1], 1e-9);
        for (double m : markers.values()) {
            xMax = Math.max(xMax, m);
        }
        xMax = xs.length == 0 && markers.isEmpty() ? 1 : xMax;
        double yMax = 0;
        double yMinPositive = Double.MAX_VALUE;
        for (double[] t : tops) {
            for (double v : t) {
                yMax = Math.max(yMax, v);
                if (v > 0) {
                    yMinPositive = Math.min(yMinPositive, v);
                }
            }
        }
        Axis y = logY ? Axis.log(yMinPositive, yMax) : Axis.linear(yMax);
        StringBuilder s = new StringBuilder();
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H));
        s.append(f("<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s</text>\n", LEFT, esc(title)));
        grid(s, y, xMax);
        int k = 0;
        double[] below = new double[xs.length];
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            double[] top = tops.get(k);
            String color = COLORS[k % COLORS.length];
            if (stacked) {
                StringBuilder pts = new StringBuilder();
                for (int i = 0; i < xs.length; i++) {
                    pts.append(f("%.1f,%.1f ", px(xs[i], xMax), y.py(top[i])));
                }
                for (int i = xs.length - 1; i >= 0; i--) {
                    pts.append(f("%.1f,%.1f ", px(xs[i], xMax), y.py(below[i])));
                }
                s.append(f("<polygon points=\"%s\" fill=\"%s\" fill-opacity=\"0.8\" stroke=\"none\"/>\n", pts, color));
                below = top;
            } else {
                StringBuilder pts = new StringBuilder();
                for (int i = 0; i < xs.length; i++) {
                    if (!logY || top[i] > 0) {
                        pts.append(f("%.1f,%.1f ", px(xs[i], xMax), y.py(top[i])));
                    }
                }
                s.append(f("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"/>\n", pts, color));
            }
            int ly = TOP + 10 + k * 18;
            s.append(f("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", W - RIGHT + 14, ly - 10, color));
            s.append(f("<text x=\"%d\" y=\"%d\">%s</text>\n", W - RIGHT + 32, ly, esc(e.getKey())));
            k++;
        }
        int n = 0;
        for (Map.Entry<String, Double> m : markers.entrySet()) {
            double x = px(m.getValue(), xMax);
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"5,4\"/>\n",
                    x, TOP, x, H - BOTTOM));
            s.append(f("<text x=\"%.1f\" y=\"%d\">%s</text>\n", x + 4, TOP + 12 + 14 * n++, esc(m.getKey())));
        }
        return s.append("</svg>\n").toString();
    }

    private void grid(StringBuilder s, Axis y, double xMax) {
        int x0 = LEFT;
        int x1 = W - RIGHT;
        int y0 = H - BOTTOM;
        s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x0, y0, x1, y0));
        s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x0, TOP, x0, y0));
        for (double v : y.ticks()) {
            double py = y.py(v);
            s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, py, x1, py));
            s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x0 - 6, py + 4, label(v)));
        }
        double step = niceStep(xMax / 8);
        for (double v = 0; v <= xMax + 1e-9; v += step) {
            double px = px(v, xMax);
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n", px, y0, px, y0 + 4));
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", px, y0 + 17, label(v)));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", (x0 + x1) / 2, H - 8, esc(xLabel)));
        s.append(f("<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s</text>\n",
                (TOP + y0) / 2, (TOP + y0) / 2, esc(yLabel)));
    }

    private static double px(double x, double xMax) {
        return LEFT + x / xMax * (W - LEFT - RIGHT);
    }

    /** A y axis: linear from 0, or log10 between decades. */
    private record Axis(boolean log, double min, double max) {
        static Axis linear(double max) {
            double step = niceStep(Math.max(max, 1e-9) / 5);
            return new Axis(false, 0, Math.ceil(Math.max(max, 1e-9) / step) * step);
        }

        static Axis log(double minPositive, double max) {
            double lo = Math.pow(10, Math.floor(Math.log10(minPositive == Double.MAX_VALUE ? 0.1 : minPositive)));
            double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(max, lo * 10))));
            return new Axis(true, lo, hi);
        }

        double py(double v) {
            double frac = log ? (Math.log10(Math.max(v, min)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : v / max;
            return H - BOTTOM - frac * (H - BOTTOM - TOP);
        }

        List<Double> ticks() {
            List<Double> t = new ArrayList<>();
            if (log) {
                for (double v = min; v <= max * 1.0001; v *= 10) {
                    t.add(v);
                }
            } else {
                double step = max / 5;
                for (int i = 0; i <= 5; i++) {
                    t.add(i * step);
                }
            }
            return t;
        }
    }

    private static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
        double n = raw / mag;
        return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
    }

    private static String label(double v) {
        if (v >= 1000 && v % 1000 == 0) {
            return f("%.0fk", v / 1000);
        }
        if (v >= 1000) {
            return f("%.1fk", v / 1000);
        }
        return v == Math.rint(v) ? f("%.0f", v) : f("%.2g", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
