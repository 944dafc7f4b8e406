package dev.seckill.system.edge;

import dev.seckill.testkit.ApiContract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Requests no HTTP client would send (paths with ';', '\', raw non-ASCII bytes, malformed lines), written to a
 * socket byte for byte, and the one answer read back.
 */
public final class RawHttp {

    private static final int READ_TIMEOUT_MS = 10_000;

    private RawHttp() {
    }

    /** An answer: status, headers (lower-case names; the last of a repeated one) and body as ISO-8859-1 text. */
    public record Answer(int status, Map<String, String> headers, String body, String raw) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * {@code METHOD path HTTP/1.1} with Host and {@code Connection: close}, the extra headers (name/value pairs) and,
     * for a POST, an empty body. The path's characters are sent as UTF-8 bytes, exactly as given (no encoding).
     */
    public static byte[] request(String method, String path, String... headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
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
     * Sends the bytes and reads until the server closes. halfClose ends the client's side after sending, for
     * requests that do not say {@code Connection: close} (malformed ones); never for a request nginx proxies, which
     * it would read as the client giving up (no answer at all).
     */
    public static Answer exchange(int port, byte[] request, boolean halfClose) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            if (halfClose) {
                s.shutdownOutput();
            }
            Answer a = parse(readAll(s.getInputStream()));
            checkContract(request, a);
            return a;
        } catch (IOException e) {
            throw new UncheckedIOException("failed to exchange with 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks the answer against the OpenAPI document ({@link ApiContract}), taking method and target from the
     * request line (a line too malformed to have them matches no route: only the document's x-any-request answers).
     */
    private static void checkContract(byte[] request, Answer a) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int eol = text.indexOf('\n');
        String[] line = (eol < 0 ? text : text.substring(0, eol)).strip().split(" ");
        String method = line.length > 1 ? line[0] : "";
        String target = line.length > 1 ? line[1] : "";
        ApiContract.check(method, target, a.status(), a::header, a.body());
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    private static Answer parse(String raw) {
        if (raw.length() < 12 || !raw.startsWith("HTTP/")) {
            return new Answer(0, Map.of(), "", raw);
        }
        int split = raw.indexOf("\r\n\r\n");
        String head = split < 0 ? raw : raw.substring(0, split);
        Map<String, String> headers = new HashMap<>();
        head.lines().skip(1).forEach(line -> {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        });
        return new Answer(Integer.parseInt(raw.substring(9, 12)), headers, split < 0 ? "" : raw.substring(split + 4),
                raw);
    }
}
