package dev.seckill.bench.load;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponseParserTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void contentLengthResponseIsCompleteOnlyWithItsWholeBody() {
        String body = "{\"code\":\"QUEUED\",\"orderId\":\"42\"}";
        byte[] all = bytes("HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\ncontent-length: " + body.length()
                + "\r\n\r\n" + body);
        LoadClient.ResponseParser p = new LoadClient.ResponseParser();
        assertEquals(-1, p.complete(all, 20), "the status line alone");
        assertEquals(-1, p.complete(all, all.length - 1), "one byte of the body missing");
        int end = p.complete(all, all.length);
        assertEquals(all.length, end);
        assertEquals(202, p.status);
        assertFalse(p.close);
        assertEquals(body, p.body(all, end));
    }

    @Test
    void chunkedResponseEndsAtTheLastChunk() {
        byte[] all = bytes("HTTP/1.1 410 Gone\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n0\r\n\r\n");
        LoadClient.ResponseParser p = new LoadClient.ResponseParser();
        assertEquals(-1, p.complete(all, all.length - 2));
        assertEquals(all.length, p.complete(all, all.length));
        assertEquals(410, p.status);
        assertTrue(p.close);
    }

    @Test
    void anAnswerTheEdgeWroteItselfIsToldApartByItsHeader() {
        String body = "{\"code\":\"RATE_LIMITED\"}";
        byte[] edge = bytes("HTTP/1.1 429 Too Many Requests\r\nX-Seckill-Answered-By: edge\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body);
        byte[] service = bytes("HTTP/1.1 429 Too Many Requests\r\nContent-Length: " + body.length() + "\r\n\r\n"
                + body);
        LoadClient.ResponseParser p = new LoadClient.ResponseParser();
        p.complete(edge, edge.length);
        assertTrue(p.byEdge);
        p.reset();
        p.complete(service, service.length);
        assertFalse(p.byEdge, "reset forgets the last answer's source");
    }

    @Test
    void resetReadsTheNextResponseAfresh() {
        LoadClient.ResponseParser p = new LoadClient.ResponseParser();
        byte[] first = bytes("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}");
        assertEquals(first.length, p.complete(first, first.length));
        p.reset();
        byte[] second = bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assertEquals(second.length, p.complete(second, second.length));
        assertEquals(200, p.status);
    }
}
