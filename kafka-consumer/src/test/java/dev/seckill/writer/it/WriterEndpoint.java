package dev.seckill.writer.it;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

/** The stack writer's HTTP side: health status and single values from the Prometheus text. */
public final class WriterEndpoint {

    private final HttpJson http = new HttpJson();

    /** "UP", "DOWN", or "UNREACHABLE" when the process does not answer. */
    public String health() {
        try {
            return http.get(Stack.get().writerUrl() + "/observe/health").json().path("status").asText();
        } catch (RuntimeException e) {
            return "UNREACHABLE";
        }
    }

    /**
     * The value of one sample, e.g. {@code seckill_writer_rows_inserted_total} or
     * {@code seckill_writer_dead_letters_total{reason="STOCK_GUARD",}}; 0 when absent.
     */
    public double metric(String sample) {
        String body = http.get(Stack.get().writerUrl() + "/observe/metrics").body();
        for (String line : body.lines().toList()) {
            if (line.startsWith(sample + " ")) {
                return Double.parseDouble(line.substring(sample.length() + 1).trim());
            }
        }
        return 0;
    }
}
