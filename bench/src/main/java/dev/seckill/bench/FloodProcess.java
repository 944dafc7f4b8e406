package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One client process of a flood level: purchases of one sale over its connections, each sending from the moment it
 * opens (the edge cuts an idle one). Prints READY once all are open (or after {@link #OPENING}), measures from GO
 * (the end of its standard input) and prints RESULT and its {@link Part} as JSON. Arguments: EDGE_PORT SALE_ID
 * CONNECTIONS SECONDS FIRST_USER SOURCE_ADDRESS; the token secret in {@value #SECRET_ENV}.
 */
public final class FloodProcess {

    static final String SECRET_ENV = "SECKILL_FLOOD_TOKEN_SECRET";
    static final String READY = "READY";
    static final String RESULT = "RESULT ";
    static final Duration OPENING = Duration.ofSeconds(60);
    /** A request unanswered this long counts as no answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What one process measured; {@code latency}: its histogram's recorded values (µs) and their counts. */
    record Part(Measured measured, List<long[]> latency, LoadClient.Wire wire) {

        static Part of(Measured measured, Histogram h, LoadClient.Wire wire) {
            List<long[]> values = new ArrayList<>();
            for (HistogramIterationValue v : h.recordedValues()) {
                values.add(new long[] {v.getValueIteratedTo(), v.getCountAtValueIteratedTo()});
            }
            return new Part(measured, values, wire);
        }

        void addTo(Histogram h) {
            latency.forEach(v -> h.recordValueWithCount(v[0], v[1]));
        }
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        long sale = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        // One user per connection, each with its own address: the flood is a crowd, not one client.
        Users users = new Users(Objects.requireNonNull(System.getenv(SECRET_ENV), SECRET_ENV + " is not set"),
                Long.parseLong(args[4]), connections);
        CountDownLatch open = new CountDownLatch(1);
        Steady steady = Steady.warm(i -> new LoadClient.Request(users.purchase(i % connections, sale, port), null),
                total -> {
                    if (total >= connections) {
                        open.countDown();
                    }
                });
        Duration length = Duration.ofSeconds(Long.parseLong(args[3]));
        Thread.ofPlatform().daemon().start(() -> awaitGo(open, steady, length));
        LoadClient.Wire wire = LoadClient.run(new InetSocketAddress("127.0.0.1", port), InetAddress.getByName(args[5]),
                connections, steady, System.nanoTime() + OPENING.plus(length).plus(TIMEOUT).toNanos(), TIMEOUT);
        Part part = Part.of(steady.result("flood"), steady.histogram(), wire);
        System.out.println(RESULT + new ObjectMapper().writeValueAsString(part));
        System.out.flush();
    }

    private static void awaitGo(CountDownLatch open, Steady steady, Duration length) {
        try {
            if (!open.await(OPENING.toSeconds(), TimeUnit.SECONDS)) {
                System.err.println("flood: not every connection opened within " + OPENING.toSeconds() + " s");
            }
            System.out.println(READY);
            System.out.flush();
            System.in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException | InterruptedException e) {
            System.err.println("flood: " + e);
        }
        long t0 = System.nanoTime();
        steady.window(t0, t0 + length.toNanos());
    }
}
