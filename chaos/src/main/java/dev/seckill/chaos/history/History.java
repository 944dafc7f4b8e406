package dev.seckill.chaos.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import dev.seckill.check.Op;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every client operation of a run, one JSON line per {@link Op} in {@code history.jsonl} (Jackson's sequence writer),
 * appended by many threads as the answers come; {@link #read} gives them back for the checker and the report.
 */
public final class History implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SequenceWriter out;
    private final AtomicLong ids = new AtomicLong();

    public History(Path file) throws IOException {
        this.out = JSON.writer().withRootValueSeparator("\n").writeValues(file.toFile());
    }

    /** The next operation's number. */
    public long nextId() {
        return ids.incrementAndGet();
    }

    public synchronized void record(Op op) {
        try {
            out.write(op);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    public static List<Op> read(Path file) throws IOException {
        try (var ops = JSON.readerFor(Op.class).<Op>readValues(file.toFile())) {
            return ops.readAll();
        }
    }
}
