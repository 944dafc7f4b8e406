package dev.seckill.testkit;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written to a socket byte for byte, and the one answer read back: for requests no HTTP client would send
 * (dot segments, ';', '\', raw non-ASCII bytes, malformed lines), which clients normalise, encode or refuse, so the
 * server gets the request target exactly as a test wrote it. Every answer is checked against the OpenAPI document
 * ({@link ApiContract}) unless sent unchecked.
 */
public final class RawHttp {

    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    private RawHttp() {
    }

    /**
     * An answer: its status (0 when what came back is not HTTP), headers (lower-case names; the first of a repeated
     * one), the body (decoded from its chunks if chunked, as UTF-8) and every byte read, as ISO-8859-1 text.
     */
    public record Answer(int status, Map<String, String> headers, String body, String raw) {

        /** A header's value, any case, or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** The status line and the headers, for messages. */
        public String head() {
            int end = raw.indexOf("\r\n\r\n");
            return end < 0 ? raw : raw.substring(0, end);
        }
    }

    /** {@link #request} sent with {@link #exchange}: the answer, checked against the contract. */
    public static Answer send(int port, String method, String target, String... headers) {
        return exchange(port, request(method, target, headers), false);
    }

    /** The same, not checked: for a route of a fake that no contract describes. */
    public static Answer sendUnchecked(int port, String method, String target, String... headers) {
        return exchange(port, request(method, target, headers), false, false);
    }

    /**
     * {@code METHOD target HTTP/1.1} with Host and {@code Connection: close}, the extra headers (name/value pairs) and,
     * for a POST, an empty body. The target's characters are sent as UTF-8 bytes, exactly as given (no encoding).
     */
    public static byte[] request(String method, String target, String... headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\nConnection: close\r\n");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        if (method.equals("POST")) {
            head.append("Content-Length: 0\r\n");
        }
        return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sends the bytes and reads one answer: its body by Content-Length or chunks (the server may keep the connection
     * open whatever was asked), else until the server closes. halfClose ends the client's side after sending, for
     * requests that do not say {@code Connection: close} (malformed ones); never for a request nginx proxies, which it
     * would read as the client giving up (no answer at all). The answer is checked against the contract, with method
     * and target from the request line (a line too malformed to have them matches no route: only the document's
     * x-any-request answers).
     */
    public static Answer exchange(int port, byte[] request, boolean halfClose) {
        return exchange(port, request, halfClose, true);
    }

    private static Answer exchange(int port, byte[] request, boolean halfClose, boolean check) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MS);
            s.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            if (halfClose) {
                s.shutdownOutput();
            }
            String[] line = requestLine(request);
            Answer a = read(s.getInputStream(), line[0]);
            if (check) {
                ApiContract.check(line[0], line[1], a.status(), a::header, a.body());
            }
            return a;
        } catch (IOException e) {
            throw new UncheckedIOException("failed to exchange with 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    /** Method and target of the request line; both empty when it has not the two. */
    private static String[] requestLine(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int eol = text.indexOf('\n');
        String[] line = (eol < 0 ? text : text.substring(0, eol)).strip().split(" ");
        return line.length > 1 ? new String[]{line[0], line[1]} : new String[]{"", ""};
    }

    private static Answer read(InputStream socket, String method) throws IOException {
        Recording in = new Recording(socket);
        String head = readHead(in);
        if (head.length() < 12 || !head.startsWith("HTTP/")) {
            in.transferTo(OutputStream.nullOutputStream());
            return new Answer(0, Map.of(), "", in.recorded());
        }
        Map<String, String> headers = new HashMap<>();
        head.lines().skip(1).forEach(l -> {
            int colon = l.indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
            }
        });
        int status = Integer.parseInt(head.substring(9, 12));
        byte[] body = method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304 ? new byte[0]
                : readBody(in, headers);
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8), in.recorded());
    }

    /** Up to and without the blank line that ends the head (or all there is, if the server closed before it). */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1).strip();
    }

    private static byte[] readBody(InputStream in, Map<String, String> headers) throws IOException {
        String encoding = headers.getOrDefault("transfer-encoding", "");
        if (encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
                body.write(in.readNBytes(size));
                readLine(in);
            }
            String trailer;
            do {
                trailer = readLine(in); // trailer fields, then the blank line that ends the message
            } while (!trailer.isEmpty());
            return body.toByteArray();
        }
        String length = headers.get("content-length");
        return length != null ? in.readNBytes(Integer.parseInt(length)) : in.readAllBytes();
    }

    private static int chunkSize(InputStream in) throws IOException {
        String line = readLine(in).split(";")[0].strip();
        return line.isEmpty() ? 0 : Integer.parseInt(line, 16);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Keeps every byte read, for {@link Answer#raw()}. */
    private static final class Recording extends FilterInputStream {

        private final ByteArrayOutputStream seen = new ByteArrayOutputStream();

        Recording(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                seen.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                seen.write(buf, off, n);
            }
            return n;
        }

        String recorded() {
            return seen.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
