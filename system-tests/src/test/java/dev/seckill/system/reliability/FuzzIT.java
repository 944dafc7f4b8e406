package dev.seckill.system.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Jwts;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input, bounded, seeded and reproducible (SECKILL_FUZZ_SEED): at least 10,000 requests at the edge, the
 * service and its internal (admin) listener — malformed and huge bodies, wrong types and methods, absurd ids,
 * forged, expired and other users' tokens, header abuse, slow clients. Every answer to bad input is the contract's:
 * a 4xx with the Error JSON and its {@code code} (parsed, not guessed from its first byte), or a 5xx the document names
 * for bad input (the edge's 501 and 505); no 500 or 503, no HTML error page, no hang, no connection closed without an
 * answer, and no sale's stock or orders change. Two divergences of the service's own HTTP layer from the document
 * are let through by name, each where it is checked (KNOWN divergence).
 */
class FuzzIT {

    private static final int REQUESTS = 10_000;
    private static final int PARALLEL = 32;
    private static final Duration PER_REQUEST = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The service's {@code server.max-payload-size} (application.yaml). */
    private static final int SERVICE_MAX_PAYLOAD = 65_536;

    private final Stack stack = Stack.get();
    private final long seed = Long.parseLong(System.getenv().getOrDefault("SECKILL_FUZZ_SEED", "20261129"));
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    private final TokenSigner expired = new TokenSigner(stack.tokenSecret(), Duration.ofSeconds(1),
            Clock.fixed(Instant.parse("2020-01-01T00:00:00Z"), ZoneOffset.UTC));
    private final TokenSigner foreign = new TokenSigner("not-the-secret-of-this-stack-but-as-long-as-one",
            Duration.ofHours(1), Clock.systemUTC());

    private final Map<String, AtomicInteger> byStatus = new ConcurrentHashMap<>();
    private final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());

    @Test
    void tenThousandBadRequestsGetNo500NoHtmlNoHangAndChangeNoSale() throws Exception {
        SaleSnapshot before = SaleSnapshot.take();
        HttpJson http = new HttpJson();
        // PARALLEL platform threads: the fuzz never waits on the virtual-thread scheduler the JVM's libraries share.
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, Thread.ofPlatform().daemon().name("fuzz-", 0)
                .factory());
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                Random r = new Random(seed * 31 + i);
                int n = i;
                all.add(pool.submit(() -> one(n, r, http)));
            }
            // Every request is bounded (PER_REQUEST): one still running long after the one before it ended fails.
            for (Future<?> f : all) {
                f.get(PER_REQUEST.toSeconds() * 4, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("fuzz seed " + seed + ": " + REQUESTS + " requests, answers by status " + byStatus);
        java.nio.file.Files.createDirectories(java.nio.file.Path.of("target"));
        java.nio.file.Files.write(java.nio.file.Path.of("target/fuzz-failures.txt"), failures);
        assertTrue(failures.isEmpty(), failures.size() + " bad answers (seed " + seed + "), first: "
                + failures.subList(0, Math.min(10, failures.size())));
        // Sales created after the snapshot are not the fuzz's doing (other tests may run against a shared stack).
        Map<Long, String> after = new java.util.TreeMap<>(SaleSnapshot.take().bySale());
        after.keySet().retainAll(before.bySale().keySet());
        assertEquals(before.bySale(), after, "fuzzing changed a sale's stock or orders");
    }

    private void one(int n, Random r, HttpJson http) {
        int layer = r.nextInt(10);
        if (layer == 9) {
            // The service's internal listener: no public path reaches it, but its answers to bad input (forged
            // tokens on admin routes, absurd ids, bodies) must be as clean as the public ones.
            request("admin #" + n, r, http, stack.adminUrl());
            return;
        }
        boolean edge = layer < 7;
        int port = edge ? stack.edgePort() : stack.servicePort();
        String target = (edge ? "edge " : "service ") + "#" + n;
        int kind = r.nextInt(100);
        try {
            if (kind < 75) {
                request(target, r, http, "http://127.0.0.1:" + port);
            } else if (kind < 97) {
                raw(target, port, malformed(r), r);
            } else {
                slowClient(target, port, r);
            }
        } catch (RuntimeException e) {
            failures.add(target + ": " + e);
        }
    }

    private void request(String target, Random r, HttpJson http, String base) {
        String[] methods = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"};
        String method = methods[r.nextInt(methods.length)];
        String path = path(r);
        String body = method.equals("GET") || method.equals("DELETE") || r.nextBoolean() ? null : body(r);
        String[] headers = {"Authorization", token(r), "X-Forwarded-For", "10." + r.nextInt(250) + ".0." + r.nextInt(250),
                "Accept", r.nextBoolean() ? "text/html" : "*/*"};
        HttpJson.Response res;
        try {
            res = http.send(method, base + path, body, headers);
        } catch (IllegalArgumentException e) {
            // The client refused to send it (an illegal URI): nothing reached a server.
            count("not sent");
            return;
        } catch (java.io.UncheckedIOException e) {
            if (!target.startsWith("edge") && body != null && body.length() > SERVICE_MAX_PAYLOAD) {
                // KNOWN divergence (issue 37): the service refuses a body over its payload limit with 413 and
                // closes without reading the rest, so a client still sending may get a reset instead of the 413.
                // nginx lingers and always answers; the edge caps bodies at 64 KiB, so no public client meets it.
                count("reset after an oversized body");
                return;
            }
            // The contract has an answer for every bad request; a connection closed without one is none of them.
            count("closed");
            failures.add(target + " " + method + " " + path + " (body " + (body == null ? 0 : body.length())
                    + " chars): closed without an answer: " + e.getMessage());
            return;
        }
        check(target + " " + method + " " + path, res.status(), res.header("Content-Type"), res.body());
    }

    /** A purchase the fuzz must never be able to make: no valid token of a real buyer on a valid request. */
    private String token(Random r) {
        long user = 1 + r.nextInt(1_000_000);
        return switch (r.nextInt(7)) {
            case 0 -> "";
            case 1 -> "Bearer " + expired.mint(user);
            case 2 -> "Bearer " + foreign.mint(user);
            case 3 -> "Bearer " + Jwts.withClaim(signer.mint(user), "sub", Long.toString(user + 1));
            case 4 -> "Basic " + "x".repeat(r.nextInt(50));
            case 5 -> "Bearer " + junk(r, r.nextInt(300));
            default -> "Bearer v1.-1.9999999999." + junk(r, 43);
        };
    }

    private String path(Random r) {
        String id = switch (r.nextInt(8)) {
            case 0 -> "-1";
            case 1 -> "0";
            case 2 -> "99999999999999999999999";
            case 3 -> "1e9";
            case 4 -> "abc";
            case 5 -> "%00";
            case 6 -> "9223372036854775807";
            default -> Integer.toString(r.nextInt(1000));
        };
        return switch (r.nextInt(12)) {
            case 0, 1, 2 -> "/api/sales/" + id + "/purchase";
            case 3 -> "/api/sales/" + id;
            case 4 -> "/api/orders/" + id;
            case 5 -> "/api/sales";
            case 6 -> "/admin/sales/" + id + "/stats";
            case 7 -> "/admin/sales";
            case 8 -> "/api/login";
            case 9 -> "/api/sales/" + id + "/purchase?quantity=" + id;
            case 10 -> "/api/" + "a/".repeat(r.nextInt(200));
            default -> "/" + junk(r, r.nextInt(40)).replaceAll("[^A-Za-z0-9._-]", "");
        };
    }

    private String body(Random r) {
        return switch (r.nextInt(9)) {
            case 0 -> "{";
            case 1 -> "[]";
            case 2 -> "{\"quantity\":" + r.nextInt() + "}";
            case 3 -> "{\"quantity\":\"one\"}";
            case 4 -> "{\"name\":" + "[".repeat(2000) + "]".repeat(2000) + "}";
            case 5 -> "{\"name\":\"" + "x".repeat(100_000) + "\"}";
            case 6 -> "{\"name\":\"a\",\"priceCents\":\"free\",\"stock\":-5,\"startsAt\":\"soon\",\"endsAt\":null}";
            case 7 -> junk(r, r.nextInt(2000));
            default -> "null";
        };
    }

    private byte[] malformed(Random r) {
        String host = "Host: 127.0.0.1\r\n";
        String s = switch (r.nextInt(10)) {
            case 0 -> "GARBAGE\r\n\r\n";
            case 1 -> "GET /api/sales HTTP/1.1\r\n" + host + "X-Big: " + "a".repeat(20_000) + "\r\n\r\n";
            case 2 -> "GET /api/sales HTTP/1.1\r\n" + host + "X-Many: 1\r\n".repeat(300) + "\r\n";
            case 3 -> "POST /api/sales/1/purchase HTTP/1.1\r\n" + host + "Content-Length: -3\r\n\r\n";
            case 4 -> "POST /api/sales/1/purchase HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n";
            case 5 -> "POST /api/sales/1/purchase HTTP/1.1\r\n" + host + "Content-Length: 5\r\nContent-Length: 7\r\n\r\n12345";
            case 6 -> "GET /" + "x".repeat(10_000) + " HTTP/1.1\r\n" + host + "\r\n";
            case 7 -> "GET /api/sales HTTP/9.9\r\n" + host + "\r\n";
            case 8 -> "GET /api/sales/1 HTTP/1.1\r\n" + host + "Bad Header Line\r\n\r\n";
            default -> "POST /api/login HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nContent-Length: 200000\r\n\r\n"
                    + "{\"name\":\"" + "y".repeat(200_000 - 11) + "\"}";
        };
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Sends raw bytes and reads the answer (if any) until the server closes or a timeout. */
    private void raw(String target, int port, byte[] request, Random r) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout((int) PER_REQUEST.toMillis());
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException closedEarly) {
                // A server may close on an oversized request before reading it all: fine, read what it said.
            }
            // No half-close: nginx reads it as the client's abort and drops a request it is proxying without an
            // answer. One answer is read by its framing instead.
            InputStream in = s.getInputStream();
            String head = readHead(in);
            if (head.isEmpty()) {
                count("closed");
                failures.add(target + " raw " + first(request) + ": closed without an answer");
                return;
            }
            int status = Integer.parseInt(head.substring(9, 12));
            check(target + " raw " + first(request), status, header(head, "content-type"), framed(head,
                    readBody(head, in)));
        } catch (SocketTimeoutException e) {
            failures.add(target + " raw: no answer within " + PER_REQUEST + " (hang)");
        } catch (IOException e) {
            count("closed");
            failures.add(target + " raw " + first(request) + ": closed without an answer: " + e);
        }
    }

    /** An answer's body as sent (still chunked when it is): by Content-Length, to the last chunk, or to the close. */
    private static String readBody(String head, InputStream in) throws IOException {
        String length = header(head, "content-length");
        boolean chunked = "chunked".equalsIgnoreCase(header(head, "transfer-encoding"));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long want = length != null && length.matches("\\d{1,9}") ? Long.parseLong(length) : Long.MAX_VALUE;
        StringBuilder tail = new StringBuilder();
        int c;
        while (buf.size() < want && buf.size() < 1_000_000 && (c = in.read()) >= 0) {
            buf.write(c);
            tail.append((char) c);
            if (tail.length() > 5) {
                tail.deleteCharAt(0);
            }
            if (chunked && tail.toString().equals("0\r\n\r\n")) {
                break;
            }
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    /** A header's value in a raw answer's head, or null. */
    private static String header(String head, String name) {
        return head.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).trim()).findFirst().orElse(null);
    }

    /** The first answer's body as its framing says (Content-Length, or chunked), not the bytes after it. */
    private static String framed(String head, String rest) {
        String length = header(head, "content-length");
        if (length != null && length.matches("\\d{1,9}")) {
            return rest.substring(0, Math.min(rest.length(), Integer.parseInt(length)));
        }
        if (!"chunked".equalsIgnoreCase(header(head, "transfer-encoding"))) {
            return rest;
        }
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = rest.indexOf("\r\n", at);
            if (eol < 0) {
                return body.toString();
            }
            int size;
            try {
                size = Integer.parseInt(rest.substring(at, eol).split(";", 2)[0].trim(), 16);
            } catch (NumberFormatException e) {
                return body.toString();
            }
            if (size == 0 || eol + 2 + size > rest.length()) {
                return body.toString();
            }
            body.append(rest, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }

    /** The request's first 40 bytes, on one line. */
    private static String first(byte[] request) {
        return new String(request, 0, Math.min(40, request.length), StandardCharsets.ISO_8859_1).replace("\r\n", " ");
    }

    /**
     * A client that sends its request one byte at a time, slowly (bounded: under 3 s), keeps its side open (a
     * half-close would read as an abort to nginx) and reads one whole answer by its framing.
     */
    private void slowClient(String target, int port, Random r) {
        byte[] req = "GET /api/sales HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout((int) PER_REQUEST.toMillis());
            OutputStream out = s.getOutputStream();
            for (byte b : req) {
                out.write(b);
                out.flush();
                Thread.sleep(r.nextInt(40));
            }
            String head = readHead(s.getInputStream());
            if (head.length() < 12) {
                failures.add(target + " slow client: no answer");
                return;
            }
            int status = Integer.parseInt(head.substring(9, 12));
            if (status != 200) {
                failures.add(target + " slow client: status " + status);
            }
            count(Integer.toString(status));
        } catch (SocketTimeoutException e) {
            failures.add(target + " slow client: hang");
        } catch (IOException e) {
            failures.add(target + " slow client: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads an answer's status line and headers (up to the blank line); the status is all a slow client needs. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && sb.length() < 65_536) {
            sb.append((char) c);
            if (sb.length() >= 4 && sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        return sb.toString();
    }

    /**
     * Holds one answer to bad input to the contract (docs/contract.md, the OpenAPI document's x-any-request): a 2xx
     * or 3xx when the request happened to be a good one; otherwise a 4xx whose body is the Error JSON with a
     * {@code code} (only 400 and 413 may come without a body, from the service's HTTP parser), or one of the 5xx the
     * document names for bad input (the edge's 501 and 505, with their codes). A 500 (a bug) or a 503 (a failure)
     * answers no bad input.
     */
    private void check(String what, int status, String contentType, String body) {
        count(Integer.toString(status));
        String code = status >= 400 ? code(body) : null;
        if (status >= 500 && !(status == 501 && "NOT_IMPLEMENTED".equals(code)
                || status == 505 && "HTTP_VERSION_NOT_SUPPORTED".equals(code))) {
            failures.add(what + " -> " + status + " " + abbreviate(body));
        }
        if (status >= 400 && (body.toLowerCase().contains("<html") || (contentType != null && contentType.contains("html")))) {
            failures.add(what + " -> " + status + " answered HTML: " + abbreviate(body));
        } else if (status >= 400 && status < 500 && !(body.isEmpty() && (status == 400 || status == 413
                // KNOWN divergence (issue 37): the service's HTTP parser answers a request line over its limit
                // 414 without a body, before any handler; the document names 414 for the edge only, with one.
                || status == 414 && what.startsWith("service ")))
                && (code == null || contentType == null || !contentType.startsWith("application/json"))) {
            failures.add(what + " -> " + status + " not the Error JSON with a code (Content-Type " + contentType
                    + "): " + abbreviate(body));
        }
    }

    /** The body's {@code code} when it is a JSON object with a non-blank textual one, else null. */
    private static String code(String body) {
        try {
            JsonNode code = JSON.readTree(body).path("code");
            return code.isTextual() && !code.asText().isBlank() ? code.asText() : null;
        } catch (java.io.IOException | RuntimeException notJson) {
            return null;
        }
    }

    private void count(String key) {
        byStatus.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    private static String junk(Random r, int len) {
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.append((char) (32 + r.nextInt(95)));
        }
        return sb.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
}
