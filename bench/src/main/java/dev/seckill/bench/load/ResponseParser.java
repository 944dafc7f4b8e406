package dev.seckill.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Incremental parse of one HTTP/1.1 response: the status, the headers that frame the body (Content-Length, chunked,
 * Connection: close) and whether the edge wrote it (X-Seckill-Answered-By), then the body. Reused by a connection.
 */
public final class ResponseParser {

    public int status;
    public boolean close;
    public boolean byEdge;
    private boolean chunked;
    private int length;
    private int headerEnd = -1;
    private int scanned;

    public void reset() {
        headerEnd = -1;
        scanned = 0;
    }

    /** The index just past the response if {@code buf[0, n)} holds all of it, else -1. */
    public int complete(byte[] buf, int n) {
        for (int i = Math.max(3, scanned); headerEnd < 0 && i < n; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                headerEnd = i + 1;
                headers(new String(buf, 0, headerEnd, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
            }
        }
        scanned = n;
        if (headerEnd < 0) {
            return -1;
        } else if (chunked) {
            // The last chunk: "0" CRLF CRLF (no trailers from nginx or Helidon).
            boolean last = n >= headerEnd + 5 && buf[n - 5] == '0' && buf[n - 4] == '\r' && buf[n - 3] == '\n'
                    && buf[n - 2] == '\r' && buf[n - 1] == '\n' && (n == headerEnd + 5 || buf[n - 6] == '\n');
            return last ? n : -1;
        }
        return n >= headerEnd + length ? headerEnd + length : -1;
    }

    public String body(byte[] buf, int end) {
        return new String(buf, headerEnd, end - headerEnd, StandardCharsets.ISO_8859_1);
    }

    private void headers(String head) {
        status = Integer.parseInt(head, 9, 12, 10);
        length = Integer.parseInt(header(head, "content-length", "0"));
        chunked = header(head, "transfer-encoding", "").contains("chunked");
        close = header(head, "connection", "").contains("close");
        byEdge = head.contains("\r\nx-seckill-answered-by:");
    }

    private static String header(String head, String name, String otherwise) {
        int i = head.indexOf("\r\n" + name + ":");
        int from = i + name.length() + 3;
        return i < 0 ? otherwise : head.substring(from, head.indexOf("\r\n", from)).trim();
    }
}
