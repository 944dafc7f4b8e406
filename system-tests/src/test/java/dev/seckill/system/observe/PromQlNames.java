package dev.seckill.system.observe;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads. Not a parser: it removes what can hold other identifiers (strings,
 * label matchers, range and subquery brackets, the label lists of by/without/on/ignoring/group_*), and what remains
 * is names, function and aggregation calls (an identifier before '('), keywords and numbers. Good for the plain
 * expressions of the observability pack; a test of its own pins what it reads.
 */
final class PromQlNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    // Possessive, so "rate(" is a call and never the name "rat"; not after '$' (a Grafana variable) or a digit.
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$.:])[A-Za-z_:][\\w:]*+(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "inf", "nan", "Inf", "NaN");

    private PromQlNames() {
    }

    static Set<String> of(String expr) {
        String rest = STRING.matcher(expr).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGE.matcher(rest).replaceAll(" ");
        rest = LABEL_LIST.matcher(rest).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(rest);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group())) {
                names.add(m.group());
            }
        }
        return names;
    }
}
