package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DataFormatException;

/**
 * One client process of a flood level ({@link FloodLevels} starts one per {@link FloodLevels#PER_PROCESS}
 * connections: a process holds at most as many connections as its open-files limit, and a container may cap that
 * limit without letting anyone raise it). It sends purchases of one sale from its users over every connection as fast
 * as the answers come, from the moment each connection opens (an idle connection would be cut by the edge's header
 * timeout while the others open), prints {@code READY} once every connection is open, measures from {@code GO} on
 * its standard input for the given length, and prints {@code RESULT} and its measurements as one JSON line.
 *
 * <pre>
 * FloodProcess EDGE_PORT SALE_ID CONNECTIONS SECONDS FIRST_USER SOURCE_ADDRESS
 *                                               (the token secret in SECKILL_FLOOD_TOKEN_SECRET)
 * </pre>
 */
public final class FloodProcess {

    static final String SECRET_ENV = "SECKILL_FLOOD_TOKEN_SECRET";
    static final String READY = "READY";
    static final String GO = "GO";
    static final String RESULT = "RESULT ";
    /** How long the connections may take to open before the level starts anyway (FloodLevels waits as long). */
    static final Duration OPENING = Duration.ofSeconds(60);
    /** A request unanswered this long counts as no answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private FloodProcess() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        long sale = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        Duration length = Duration.ofSeconds(Long.parseLong(args[3]));
        long firstUser = Long.parseLong(args[4]);
        InetAddress source = InetAddress.getByName(args[5]);
        String secret = System.getenv(SECRET_ENV);
        if (secret == null) {
            System.err.println("flood: " + SECRET_ENV + " is not set");
            System.exit(2);
        }
        PrintStream out = System.out;
        // One user per connection, each with its own address: the flood is a crowd, not one client.
        Users users = new Users(secret, firstUser, connections);
        // READY once, when every connection is open (reconnects count on, so only the first crossing says it).
        Steady steady = Steady.warm(i -> new LoadClient.Request(users.purchase(i % connections, sale, port), null),
                total -> {
                    if (total == connections) {
                        out.println(READY + " " + total);
                        out.flush();
                    }
                });
        Thread.ofPlatform().daemon().name("flood-go").start(() -> awaitGo(steady, length));

        long deadline = System.nanoTime() + OPENING.plus(length).plus(TIMEOUT).toNanos();
        LoadClient.Wire wire = LoadClient.run(new InetSocketAddress("127.0.0.1", port), source, connections, steady,
                deadline, TIMEOUT);

        Measured m = steady.result("flood");
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("answers", m.requests());
        result.put("seconds", m.seconds());
        result.put("byStatus", m.byStatus());
        result.put("byKind", m.byKind());
        result.put("histogram", encode(steady.histogram()));
        result.put("connected", wire.connected());
        result.put("failedConnections", wire.failed());
        out.println(RESULT + new ObjectMapper().writeValueAsString(result));
        out.flush();
    }

    /** Opens the measured window when GO comes; a closed input (the bench is gone) ends the process. */
    private static void awaitGo(Steady steady, Duration length) {
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.trim().equals(GO)) {
                    long t0 = System.nanoTime();
                    steady.window(t0, t0 + length.toNanos());
                    return;
                }
            }
        } catch (IOException e) {
            System.err.println("flood: failed to read the go signal: " + e);
        }
        System.exit(1);
    }

    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
    }

    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an encoded histogram", e);
        }
    }
}
