package dev.seckill.testkit;

/**
 * Reads one top-level string or number field out of a small JSON answer without a parser (the bench reads every
 * answer of its load on one thread): the one way the bench and the tests read an answer's code and order id.
 */
public final class Bodies {

    private Bodies() {
    }

    /** The value of {@code "name"} (string or number) in {@code json}, or null. */
    public static String field(String json, String name) {
        int i = json == null ? -1 : json.indexOf("\"" + name + "\"");
        if (i < 0) {
            return null;
        }
        i += name.length() + 2;
        while (i < json.length() && (json.charAt(i) == ' ' || json.charAt(i) == ':')) {
            i++;
        }
        boolean quoted = i < json.length() && json.charAt(i) == '"';
        int from = quoted ? i + 1 : i;
        int to = from;
        while (to < json.length() && (quoted ? json.charAt(to) != '"' : isNumberChar(json.charAt(to)))) {
            to++;
        }
        return to > from ? json.substring(from, to) : null;
    }

    private static boolean isNumberChar(char c) {
        return (c >= '0' && c <= '9') || c == '-';
    }
}
