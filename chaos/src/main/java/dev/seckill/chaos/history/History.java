package dev.seckill.chaos.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.check.Op;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every client operation of a run, one JSON line per {@link Op} in {@code history.jsonl}, appended by many threads as
 * the answers come; {@link #read} gives them back for the checker and the report.
 */
public final class History implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BufferedWriter out;
    private final AtomicLong ids = new AtomicLong();

    public History(Path file) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** The next operation's number. */
    public long nextId() {
        return ids.incrementAndGet();
    }

    public synchronized void record(Op op) {
        try {
            out.write(JSON.writeValueAsString(op));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    public static List<Op> read(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.filter(l -> !l.isBlank()).map(History::parse).toList();
        }
    }

    private static Op parse(String line) {
        try {
            return JSON.readValue(line, Op.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not an operation: " + line, e);
        }
    }
}
