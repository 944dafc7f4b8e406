package dev.seckill.bench;

import java.nio.charset.StandardCharsets;

/**
 * Incremental parse of one HTTP/1.1 response for {@link LoadClient}: the status line, the few headers that frame
 * the body (Content-Length, chunked, Connection: close) and whether the edge wrote it (X-Seckill-Answered-By),
 * then the body. Reused for every response of a connection.
 */
final class ResponseParser {

    private static final byte[] CONTENT_LENGTH = ascii("content-length:");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding:");
    private static final byte[] CONNECTION = ascii("connection:");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] ANSWERED_BY = ascii("x-seckill-answered-by:");

    int status;
    boolean close;
    /** The edge wrote the answer itself (X-Seckill-Answered-By). */
    boolean byEdge;
    private int headerEnd = -1;
    private int scanned;
    private int length = -1;
    private boolean chunked;

    void reset() {
        status = 0;
        close = false;
        byEdge = false;
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
            headers(buf);
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

    /** Reads the status and the framing headers straight from the bytes: no strings on the hot path. */
    private void headers(byte[] buf) {
        status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
        int line = indexOfCrlf(buf, 0, headerEnd) + 2;
        while (line < headerEnd - 2) {
            int eol = indexOfCrlf(buf, line, headerEnd);
            if (startsWithIgnoreCase(buf, line, CONTENT_LENGTH)) {
                length = 0;
                for (int i = line + CONTENT_LENGTH.length; i < eol; i++) {
                    if (buf[i] >= '0' && buf[i] <= '9') {
                        length = length * 10 + (buf[i] - '0');
                    }
                }
            } else if (startsWithIgnoreCase(buf, line, TRANSFER_ENCODING)) {
                chunked = contains(buf, line + TRANSFER_ENCODING.length, eol, CHUNKED);
            } else if (startsWithIgnoreCase(buf, line, CONNECTION)) {
                close = contains(buf, line + CONNECTION.length, eol, CLOSE);
            } else if (startsWithIgnoreCase(buf, line, ANSWERED_BY)) {
                byEdge = true;
            }
            line = eol + 2;
        }
    }

    private static int indexOfCrlf(byte[] buf, int from, int to) {
        for (int i = from; i + 1 < to; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n') {
                return i;
            }
        }
        return to;
    }

    /** Compares lower-case ASCII {@code word} with {@code buf} at {@code at}, ignoring the case of letters. */
    private static boolean startsWithIgnoreCase(byte[] buf, int at, byte[] word) {
        if (at + word.length > buf.length) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            byte b = buf[at + i];
            if (b != word[i] && (b | 0x20) != word[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] buf, int from, int to, byte[] word) {
        for (int i = from; i + word.length <= to; i++) {
            if (startsWithIgnoreCase(buf, i, word)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
