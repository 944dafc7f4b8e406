package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** wrk's summary as its done hook prints it, read in milliseconds; and one short real run where wrk is installed. */
class WrkTest {

    @Test
    void readsRateCountsAndLatencyInMilliseconds() throws Exception {
        Measured m = Wrk.parse("x", "Running 5s test @ http://127.0.0.1:48080/edge/bench/ok\n" + Wrk.MARK
                + "{\"requests\": 37668, \"seconds\": 5.03, \"non2xx\": 12, \"socketErrors\": 3, "
                + "\"latency\": {\"p50\": 0.412, \"p90\": 48.39, \"p99\": 108.42, \"max\": 1640, "
                + "\"mean\": 0.53422}}\n");
        assertEquals(37668, m.requests());
        assertEquals(37668 / 5.03, m.rps(), 1e-9);
        assertEquals(5.03, m.seconds(), 1e-9);
        assertEquals(37656, m.count("2xx/3xx"));
        assertEquals(12, m.count("non-2xx"));
        assertEquals(3, m.count("socket errors"));
        assertEquals(0.412, m.latency().p50(), 1e-9);
        assertEquals(48.39, m.latency().p90(), 1e-9);
        assertEquals(108.42, m.latency().p99(), 1e-9);
        assertEquals(1640, m.latency().max(), 1e-9);
        assertEquals(0.53422, m.latency().mean(), 1e-9);
    }

    @Test
    void aRealRunPrintsItsSummaryThroughTheScriptItWasGiven() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/wrk")), "wrk is not installed");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/", ex -> {
            int status = ex.getRequestMethod().equals("POST") ? 410 : 200;
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        server.start();
        Path script = Files.createTempFile("post-", ".lua");
        try {
            Files.writeString(script, "wrk.method = \"POST\"\n");
            Measured m = Wrk.run("x", "http://127.0.0.1:" + server.getAddress().getPort() + "/", 1, 2,
                    Duration.ofSeconds(1), script, Map.of());
            assertTrue(m.requests() > 0, m.toString());
            assertEquals(m.requests(), m.count("non-2xx"), "every answer was the script's POST's 410: " + m);
            assertTrue(m.latency().p50() > 0 && m.latency().max() >= m.latency().p99(), m.toString());
        } finally {
            server.stop(0);
            Files.delete(script);
        }
    }
}
