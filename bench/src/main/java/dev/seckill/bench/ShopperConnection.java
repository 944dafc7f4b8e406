package dev.seckill.bench;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One shopper's keep-alive connection to the edge for {@link ArrivalCurve}: opened before the sale starts, as a
 * loaded page's would be, so that the first click costs a request and not a connect. Blocking, one request at a
 * time, framed by {@link ResponseParser}; a few requests per shopper, so simplicity over speed.
 */
final class ShopperConnection implements Closeable {

    /** One answer: status, the Retry-After header in seconds (0: none) and the body. */
    record Answer(int status, int retryAfter, String body) {
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final ResponseParser parser = new ResponseParser();
    private final String host;
    private byte[] buf = new byte[4096];

    ShopperConnection(int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
        host = "127.0.0.1:" + port;
    }

    Answer send(String method, String path, String token, String address, String json) throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(host).append("\r\nX-Forwarded-For: ").append(address).append("\r\n");
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        if (json != null) {
            head.append("Content-Type: application/json\r\n");
        }
        if (json != null || method.equals("POST")) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        return read();
    }

    private Answer read() throws IOException {
        parser.reset();
        int n = 0;
        int end;
        while ((end = parser.complete(buf, n)) < 0) {
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                throw new IOException("the edge closed the connection mid-answer");
            }
            n += r;
        }
        String text = new String(buf, 0, end, StandardCharsets.ISO_8859_1);
        int split = text.indexOf("\r\n\r\n");
        return new Answer(parser.status, retryAfter(text.substring(0, split)), text.substring(split + 4));
    }

    private static int retryAfter(String headers) {
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("retry-after:")) {
                try {
                    return Integer.parseInt(line.substring("retry-after:".length()).trim());
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
