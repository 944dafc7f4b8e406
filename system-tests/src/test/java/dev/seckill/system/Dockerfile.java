package dev.seckill.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Dockerfile says about its stages, read without a Docker engine: each stage's base (an image, or an earlier
 * stage), the files it copies in (destination paths) and its ENV settings. Enough for ComposeConfigIT to tell whether
 * a health check's program is in the image a target builds; not a full parser (no heredocs, no ONBUILD).
 */
record Dockerfile(Map<String, Stage> stages) {

    /** One stage: FROM base (ARG defaults substituted), its COPY instructions and the ENV of its own lines. */
    record Stage(String name, String base, List<Copy> copied, Map<String, String> env) {
    }

    /** COPY [--from=STAGE] SOURCE DEST (the last source when there are several; options other than --from dropped). */
    record Copy(String fromStage, String source, String dest) {
    }

    private static final Pattern FROM = Pattern.compile("(?i)FROM\\s+(?:--\\S+\\s+)*(\\S+)(?:\\s+AS\\s+(\\S+))?");
    private static final Pattern ARG = Pattern.compile("(?i)ARG\\s+(\\w+)=(\\S+)");
    private static final Pattern ENV_PAIR = Pattern.compile("(\\w+)=(\\S+)");
    private static final Pattern VAR = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");

    static Dockerfile read(Path file) throws IOException {
        Map<String, String> args = new HashMap<>();
        Map<String, Stage> stages = new LinkedHashMap<>();
        Stage current = null;
        // Continuation lines (a trailing backslash) make one instruction; comments and blank lines are skipped.
        String text = Files.readString(file).replaceAll("\\\\\\n\\s*", " ");
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            Matcher m;
            if (current == null && (m = ARG.matcher(l)).matches()) {
                args.put(m.group(1), m.group(2).replace("\"", ""));
            } else if ((m = FROM.matcher(l)).matches()) {
                String base = substitute(m.group(1), args);
                String name = m.group(2) != null ? m.group(2) : "stage" + stages.size();
                current = new Stage(name, base, new ArrayList<>(), new LinkedHashMap<>());
                stages.put(name, current);
            } else if (current != null && l.regionMatches(true, 0, "COPY ", 0, 5)) {
                List<String> words = new ArrayList<>(List.of(l.split("\\s+")));
                words.removeFirst();
                String from = words.stream().filter(w -> w.startsWith("--from=")).findFirst()
                        .map(w -> w.substring("--from=".length())).orElse(null);
                words.removeIf(w -> w.startsWith("--"));
                current.copied().add(new Copy(from, words.get(words.size() - 2), words.getLast()));
            } else if (current != null && l.regionMatches(true, 0, "ENV ", 0, 4)) {
                Matcher pair = ENV_PAIR.matcher(l.substring(4));
                while (pair.find()) {
                    current.env().put(pair.group(1), pair.group(2));
                }
            }
        }
        return new Dockerfile(stages);
    }

    /** The stages a target is made of, the target first, up to the one built on an outside image. */
    List<Stage> chain(String target) {
        List<Stage> out = new ArrayList<>();
        Stage s = stages.get(target);
        while (s != null) {
            out.add(s);
            s = stages.get(s.base());
        }
        return out;
    }

    /** The outside image a target is built on. */
    String baseImage(String target) {
        List<Stage> chain = chain(target);
        return chain.isEmpty() ? null : chain.getLast().base();
    }

    /** The last stage: what `docker build` without --target makes. */
    String lastStage() {
        return stages.keySet().stream().reduce((a, b) -> b).orElseThrow();
    }

    private static String substitute(String value, Map<String, String> args) {
        Matcher m = VAR.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement(args.getOrDefault(name, m.group())));
        }
        return m.appendTail(out).toString();
    }
}
