package dev.seckill.bench.report;

/** What the bench is doing now, one line on stderr ("bench: ..."); the report and the summary go to stdout. */
public final class Progress {

    private Progress() {
    }

    public static void say(String message) {
        System.err.println("bench: " + message);
    }
}
