package dev.seckill.system.protection;

import dev.seckill.system.edge.EdgeFixture;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Connections: an edge's workers together hold more concurrent clients than one worker's
 * worker_connections (at 12,000 clients one worker once ran out of its 8,192 and logged "worker_connections are not
 * enough"). At this scale: 2 workers of 1,024 connections with reuseport (each worker its own accept queue) and
 * 1,600 clients, all open at once, each answered, nothing in the error log. The 20,000-client measurement is the
 * bench's (bench/README.md, --flood-levels).
 */
class ConnectionsIT {

    private static final int WORKER_CONNECTIONS = 1024;
    private static final int CLIENTS = 1600;
    private static final long SALE = 1821;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("connections", "SECKILL_EDGE_WORKERS", "2",
            "SECKILL_EDGE_WORKER_CONNECTIONS", Integer.toString(WORKER_CONNECTIONS));
    private final HttpJson http = new HttpJson();

    @Test
    void moreClientsThanOneWorkerHoldsAreAllAnswered() throws IOException {
        assertEquals(200, http.send("PUT", fixture.url("/edge/flags/sold-out/" + SALE + "?ttl=120"), null).status());
        byte[] purchase = ("POST /api/sales/" + SALE + "/purchase HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0"
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Socket> clients = new ArrayList<>();
        Map<String, Integer> statusLines = new TreeMap<>();
        try {
            // Every client connects before any sends: all of them are held by the edge at once.
            for (int i = 0; i < CLIENTS; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), fixture.edge().port());
                s.setSoTimeout(20_000);
                clients.add(s);
            }
            for (Socket s : clients) {
                s.getOutputStream().write(purchase);
            }
            for (Socket s : clients) {
                String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                        .readLine();
                statusLines.merge(String.valueOf(line), 1, Integer::sum);
            }
        } finally {
            for (Socket s : clients) {
                s.close();
            }
        }

        assertEquals(Map.of("HTTP/1.1 410 Gone", CLIENTS), statusLines);
        assertFalse(fixture.edge().errorLog().contains("worker_connections are not enough"),
                fixture.edge().errorLog());
    }
}
