package dev.seckill.testkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How an answer is read, against a socket that answers as scripted: by Content-Length while the server keeps the
 * connection open, by chunks, until close, and something that is not HTTP at all. The scripted answers carry the
 * test-double header, so the contract leaves them alone.
 */
class RawHttpTest {

    private final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());

    RawHttpTest() throws IOException {
    }

    @AfterEach
    void close() throws IOException {
        server.close();
    }

    /** Answers the first connection with {@code answer}, then keeps it open (closeAfter false) or closes it. */
    private CompletableFuture<String> answer(String answer, boolean closeAfter) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket s = server.accept()) {
                String request = readRequest(s.getInputStream());
                s.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                if (!closeAfter) {
                    s.getInputStream().read();
                }
                return request;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        while (!seen.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            seen.write(b);
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theRequestIsSentAsWrittenWithAnEmptyBodyForAPost() throws Exception {
        CompletableFuture<String> request = answer("HTTP/1.1 204 No Content\r\nX-Test-Double: 1\r\n\r\n", true);

        RawHttp.Answer a = RawHttp.send(server.getLocalPort(), "POST", "/api/x/..;/admin", "Authorization", "Bearer t");

        assertEquals(204, a.status());
        assertEquals("POST /api/x/..;/admin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Authorization: Bearer t\r\nContent-Length: 0\r\n\r\n", request.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aBodyOfContentLengthIsReadWhileTheServerKeepsTheConnectionOpen() {
        answer("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Type: other\r\nX-Test-Double: 1\r\n"
                + "Content-Length: 5\r\n\r\nhello", false);

        RawHttp.Answer a = RawHttp.send(server.getLocalPort(), "GET", "/x");

        assertEquals(200, a.status());
        assertEquals("hello", a.body());
        assertEquals("text/plain", a.header("content-type"), "the first of a repeated header");
        assertTrue(a.head().startsWith("HTTP/1.1 200 OK\r\n") && !a.head().contains("hello"), a.head());
    }

    @Test
    void aChunkedBodyIsDecodedAndTheRawAnswerKeepsTheChunks() {
        answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Test-Double: 1\r\n\r\n"
                + "3\r\n{\"a\r\n4;ext=1\r\n\":1}\r\n0\r\n\r\n", false);

        RawHttp.Answer a = RawHttp.send(server.getLocalPort(), "GET", "/x");

        assertEquals("{\"a\":1}", a.body());
        assertTrue(a.raw().endsWith("3\r\n{\"a\r\n4;ext=1\r\n\":1}\r\n0\r\n\r\n"), a.raw());
    }

    @Test
    void aBodyWithoutLengthIsReadUntilTheServerCloses() {
        answer("HTTP/1.1 400 Bad Request\r\nX-Test-Double: 1\r\n\r\n{\"code\":\"BAD_REQUEST\"}", true);

        RawHttp.Answer a = RawHttp.exchange(server.getLocalPort(), "GARBAGE\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                true);

        assertEquals(400, a.status());
        assertEquals("{\"code\":\"BAD_REQUEST\"}", a.body());
    }

    @Test
    void somethingThatIsNotHttpIsStatusZeroWithWhatCameBack() {
        answer("SSH-2.0-nope\r\n", true);

        RawHttp.Answer a = RawHttp.exchange(server.getLocalPort(), RawHttp.request("GET", "/x"), false);

        assertEquals(0, a.status());
        assertEquals("SSH-2.0-nope\r\n", a.raw());
        assertEquals(null, a.header("Content-Type"));
    }
}
