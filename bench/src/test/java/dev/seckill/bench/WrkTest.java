package dev.seckill.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WrkTest {

    private static final String OUTPUT = """
            Running 5s test @ http://127.0.0.1:48080/edge/bench/ok
              2 threads and 256 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   534.22us  495.23us   1.64s    88.89%
                Req/Sec     3.78k     1.40k    6.58k    63.54%
              Latency Distribution
                 50%  412.00us
                 75%    1.02ms
                 90%   48.39ms
                 99%  108.42ms
              37668 requests in 5.03s, 5.32MB read
              Socket errors: connect 0, read 2, write 0, timeout 1
              Non-2xx or 3xx responses: 12
            Requests/sec:   7485.41
            Transfer/sec:      1.06MB
            """;

    @Test
    void readsRateCountsAndLatencyInMilliseconds() throws Exception {
        Measured m = Wrk.parse("x", OUTPUT);
        assertEquals(37668, m.requests());
        assertEquals(7485.41, m.rps(), 1e-9);
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
}
