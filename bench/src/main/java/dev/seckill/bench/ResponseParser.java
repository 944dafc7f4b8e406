package dev.seckill.bench;

import java.nio.charset.StandardCharsets;

/**
 * Incremental parse of one HTTP/1.1 response for {@link LoadClient}: the status line, the few headers that frame
 * the body (Content-Length, chunked, Connection: close), then the body. Reused for every response of a connection.
 */
final class ResponseParser {

    int status;
    boolean close;
    private int headerEnd = -1;
    private int scanned;
    private int length = -1;
    private boolean chunked;

    void reset() {
        status = 0;
        close = false;
        headerEnd = -1;
        scanned = 0;
        length = -1;
        chunked = false;
    }

    /** The index just past the response if {@code buf[0, n)} holds all of it, else -1. */
    int complete(byte[] buf, int n) {
        if (headerEnd < 0) {
            for (int i = Math.max(3, scanned); i < n; i++) {
                if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                    headerEnd = i + 1;
                    break;
                }
            }
            scanned = n;
            if (headerEnd < 0) {
                return -1;
            }
            headers(new String(buf, 0, headerEnd, StandardCharsets.ISO_8859_1));
        }
        if (chunked) {
            // The last chunk: "0" CRLF CRLF (no trailers from nginx or Helidon).
            boolean last = n >= headerEnd + 5 && buf[n - 5] == '0' && buf[n - 4] == '\r' && buf[n - 3] == '\n'
                    && buf[n - 2] == '\r' && buf[n - 1] == '\n' && (n == headerEnd + 5 || buf[n - 6] == '\n');
            return last ? n : -1;
        }
        int end = headerEnd + Math.max(0, length);
        return n >= end ? end : -1;
    }

    String body(byte[] buf, int end) {
        return new String(buf, headerEnd, end - headerEnd, StandardCharsets.ISO_8859_1);
    }

    private void headers(String head) {
        status = Integer.parseInt(head.substring(9, 12));
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.toLowerCase().contains("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
    }
}
