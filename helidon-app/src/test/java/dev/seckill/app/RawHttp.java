package dev.seckill.app;

import dev.seckill.testkit.ApiContract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, so a request target reaches the server exactly as written: HTTP clients normalise
 * dot segments and encode what they dislike, which would hide the very path tricks a test means to send.
 */
final class RawHttp {

    /** Status code and body of one answer. */
    record Answer(int status, String head, String body) {

        /** The first value of a header, any case, or null. */
        String header(String name) {
            String prefix = name.toLowerCase(java.util.Locale.ROOT) + ":";
            return head.lines().skip(1).filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith(prefix))
                    .map(l -> l.substring(prefix.length()).strip()).findFirst().orElse(null);
        }
    }

    private RawHttp() {
    }

    /** Sends the request and checks the answer against the OpenAPI document ({@link ApiContract}). */
    static Answer send(int port, String method, String target, String... headers) throws IOException {
        Answer a = sendUnchecked(port, method, target, headers);
        ApiContract.check(method, target, a.status(), a::header, a.body());
        return a;
    }

    /** Sends the request; the answer is not checked (a route of a fake no contract describes). */
    static Answer sendUnchecked(int port, String method, String target, String... headers) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            for (String h : headers) {
                req.append(h).append("\r\n");
            }
            req.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String head = readHead(in);
            String body = new String(readBody(in, head.toLowerCase()), StandardCharsets.UTF_8);
            return new Answer(Integer.parseInt(head.split(" ", 3)[1]), head, body);
        }
    }

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

    /** The body by Content-Length or chunks: the server may keep the connection open whatever we asked. */
    private static byte[] readBody(InputStream in, String head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (head.contains("transfer-encoding: chunked")) {
            while (true) {
                int size = Integer.parseInt(readLine(in).split(";")[0].strip(), 16);
                if (size == 0) {
                    return body.toByteArray();
                }
                body.write(in.readNBytes(size));
                readLine(in);
            }
        }
        for (String line : head.split("\r\n")) {
            if (line.startsWith("content-length:")) {
                return in.readNBytes(Integer.parseInt(line.substring(15).strip()));
            }
        }
        return body.toByteArray();
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
}
