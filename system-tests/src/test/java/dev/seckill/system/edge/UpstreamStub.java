package dev.seckill.system.edge;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.testkit.ApiContract;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Stands in for the service behind a test edge: an HTTP server on 127.0.0.1 (ephemeral port) in the test JVM that
 * records every request it gets and answers what the test told it to. Tests count its hits to see which requests
 * the edge answered itself.
 */
public final class UpstreamStub implements AutoCloseable {

    /** A request that reached the stub: its raw path and query (null: none); header names are lower-case. */
    public record Hit(String method, String path, String query, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** What the stub answers. */
    public record Reply(int status, Map<String, String> headers, String body) {

        /** A JSON answer; headers are name/value pairs. */
        public static Reply json(int status, String body, String... headers) {
            Map<String, String> h = new HashMap<>();
            for (int i = 0; i + 1 < headers.length; i += 2) {
                h.put(headers[i], headers[i + 1]);
            }
            h.put("Content-Type", "application/json");
            // As the service does: browsers must not keep its answers (the edge micro-caches reads anyway).
            h.put("Cache-Control", "no-store");
            return new Reply(status, h, body);
        }
    }

    /** Decides the answer to one request; may block (a slow service) until the test lets it go. */
    public interface Responder {
        Reply answer(Hit hit) throws InterruptedException;
    }

    public static final Responder DEFAULT = hit -> hit.path().endsWith("/purchase")
            ? Reply.json(202, "{\"code\":\"QUEUED\",\"orderId\":\"o-1\"}")
            : Reply.json(200, "{\"path\":\"" + hit.path() + "\"}");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("stub-", 0)
            .factory());
    private final List<Hit> hits = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Responder responder = DEFAULT;

    private UpstreamStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static UpstreamStub start() {
        try {
            return new UpstreamStub();
        } catch (IOException e) {
            throw new AssertionError("failed to start the upstream stub: " + e.getMessage(), e);
        }
    }

    /** host:port, as SECKILL_EDGE_UPSTREAM wants it. */
    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    public void answer(Responder r) {
        this.responder = r;
    }

    public long hits(Predicate<Hit> which) {
        return hits.stream().filter(which).count();
    }

    public long hits(String path) {
        return hits(h -> h.path().equals(path));
    }

    public Hit last(String path) {
        return hits.reversed().stream().filter(h -> h.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("the upstream never got " + path));
    }

    @Override
    public void close() {
        // Idempotent: a test may stop the stub (the service going down) before its fixture does.
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body;
            try (InputStream in = ex.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Map<String, String> headers = new HashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.getFirst()));
            Hit hit = new Hit(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), ex.getRequestURI().getRawQuery(),
                    headers, body);
            hits.add(hit);
            Reply reply;
            try {
                reply = responder.answer(hit);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            reply.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            // The stub's answers are scripted, not the service's: the contract check leaves them alone.
            ex.getResponseHeaders().add(ApiContract.EXEMPT_HEADER, "upstream-stub");
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
