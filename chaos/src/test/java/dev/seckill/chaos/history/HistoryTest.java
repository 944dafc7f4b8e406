package dev.seckill.chaos.history;

import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HistoryTest {

    @Test
    void everyOperationIsOneLineAndReadsBackAsItWasRecorded(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("history.jsonl");
        Op bought = new Op(1, OpKind.PURCHASE, "run-1", 7, 42, 0, 1000, 1200, 202, "QUEUED", "o-1", "lb", null);
        Op unanswered = new Op(2, OpKind.PAY, "run-2", 7, 42, 0, 1300, 11_300, 0, null, "o-1", "lb-2", null);
        try (History h = new History(file)) {
            h.record(bought);
            h.record(unanswered);
        }
        assertEquals(2, Files.readAllLines(file).size());
        assertEquals(List.of(bought, unanswered), History.read(file));
    }
}
