package dev.seckill.bench.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A closed-loop HTTP/1.1 load generator on one NIO selector thread (docs/bench-design.md says why it is kept): keep-alive
 * connections, each sending its next request once the previous one is answered. A request whose connection fails or
 * outlasts the timeout is answered {@link Answer#NONE}; one still in flight at the deadline is dropped.
 */
public final class LoadClient implements AutoCloseable {

    /** What the connections send, called on the client's one thread; next() is null when there is nothing now. */
    public interface Script {
        Request next();

        void answered(Request request, long startNanos, long endNanos, Answer answer);

        /** Whether the script is done once nothing is left to send or in flight. */
        default boolean finished() {
            return true;
        }
    }

    /** Connects that completed, and connections that failed (refused, reset, closed mid-request or timed out). */
    public record Wire(long connected, long failed) {
    }

    public record Request(byte[] bytes, Object tag) {
    }

    private static final long PAUSE = Duration.ofMillis(100).toNanos();
    private static final int OPEN_PER_TURN = 256;

    private final InetSocketAddress server;
    private final Script script;
    private final long timeout;
    private final Selector selector = Selector.open();
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final List<Conn> conns = new ArrayList<>();
    private int busy;
    private long connected;
    private long failed;

    private LoadClient(InetSocketAddress server, Script script, Duration timeout) throws IOException {
        this.server = server;
        this.script = script;
        this.timeout = timeout.toNanos();
    }

    /** Runs on 127.0.0.1:{@code port} until the deadline, or until every connection is idle and the script is done. */
    public static Wire run(int port, int connections, Script script, long deadlineNanos, Duration timeout)
            throws IOException {
        try (LoadClient c = new LoadClient(new InetSocketAddress("127.0.0.1", port), script, timeout)) {
            c.loop(connections, deadlineNanos);
            return new Wire(c.connected, c.failed);
        }
    }

    private void loop(int connections, long deadline) throws IOException {
        long nextCheck = System.nanoTime();
        while (System.nanoTime() < deadline) {
            // A few hundred connections open per turn while the open ones are served: opening thousands takes
            // seconds, and an edge cuts a connection that sends nothing for its header timeout.
            boolean opening = conns.size() < connections;
            for (int k = 0; k < OPEN_PER_TURN && conns.size() < connections; k++) {
                conns.add(connect(new Conn()));
            }
            for (Request r; !idle.isEmpty() && (r = script.next()) != null; ) {
                send(idle.poll(), r);
            }
            if (!idle.isEmpty() && busy == 0 && script.finished()) {
                return;
            }
            selector.select(this::ready, opening ? 1 : 20);
            long now = System.nanoTime();
            if (now >= nextCheck) {
                nextCheck = now + PAUSE;
                for (Conn c : conns) {
                    if (c.request != null && now - c.start > timeout) {
                        fail(c);
                    } else if (c.channel == null && now >= c.reconnectAt) {
                        connect(c);
                    }
                }
            }
        }
    }

    private void ready(SelectionKey key) {
        Conn c = (Conn) key.attachment();
        try {
            if (key.isConnectable()) {
                c.channel.finishConnect();
                key.interestOps(0);
                idle.add(c);
                connected++;
            } else if (key.isReadable()) {
                read(c);
            }
        } catch (IOException e) {
            fail(c);
        }
    }

    private Conn connect(Conn c) {
        try {
            c.channel = SocketChannel.open();
            c.channel.configureBlocking(false);
            c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            // Every close is a reset: a closed port stays in TIME_WAIT for a minute, and a 20,000-connection flood
            // level needs most of loopback's ~28,000 ephemeral ports per destination.
            c.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            c.channel.connect(server);
            c.key = c.channel.register(selector, SelectionKey.OP_CONNECT, c);
        } catch (IOException e) {
            fail(c);
        }
        return c;
    }

    /** Sends {@code r}: a request fits in the empty send buffer of its connection, so a short write is a failure. */
    private void send(Conn c, Request r) {
        c.request = r;
        c.start = System.nanoTime();
        busy++;
        try {
            if (c.channel.write(ByteBuffer.wrap(r.bytes())) < r.bytes().length) {
                throw new IOException("short write");
            }
            c.key.interestOps(SelectionKey.OP_READ);
        } catch (IOException e) {
            fail(c);
        }
    }

    private void read(Conn c) throws IOException {
        if (!c.in.hasRemaining()) {
            c.in = ByteBuffer.allocate(c.in.capacity() * 2).put(c.in.flip());
        }
        if (c.channel.read(c.in) < 0) {
            throw new IOException("closed by the server");
        }
        ResponseParser p = c.response;
        int end = p.complete(c.in.array(), c.in.position());
        if (end < 0) {
            return;
        }
        boolean close = p.close;
        answer(c, new Answer(p.status, p.body(c.in.array(), end), p.byEdge));
        Request next = close ? null : script.next();
        if (close) {
            closeChannel(c);
            connect(c);
        } else if (next != null) {
            send(c, next);
        } else {
            c.key.interestOps(0);
            idle.add(c);
        }
    }

    private void answer(Conn c, Answer answer) {
        Request r = c.request;
        c.reset();
        busy--;
        script.answered(r, c.start, System.nanoTime(), answer);
    }

    /** A connection failed or timed out: its request gets no answer, and it reconnects after a pause. */
    private void fail(Conn c) {
        failed++;
        idle.remove(c);
        if (c.request != null) {
            answer(c, Answer.NONE);
        }
        closeChannel(c);
        c.reconnectAt = System.nanoTime() + PAUSE;
    }

    private static void closeChannel(Conn c) {
        try {
            if (c.channel != null) {
                c.channel.close();
            }
        } catch (IOException e) {
            // a broken connection: nothing left to do
        }
        c.channel = null;
        c.reset();
    }

    @Override
    public void close() throws IOException {
        conns.forEach(LoadClient::closeChannel);
        selector.close();
    }

    private static final class Conn {
        SocketChannel channel;
        public SelectionKey key;
        public Request request;
        public ByteBuffer in = ByteBuffer.allocate(4096);
        public final ResponseParser response = new ResponseParser();
        public long start;
        long reconnectAt;

        public void reset() {
            request = null;
            in.clear();
            response.reset();
        }
    }

    /**
     * Incremental parse of one HTTP/1.1 response: the status, the headers that frame the body (Content-Length, chunked,
     * Connection: close) and whether the edge wrote it (X-Seckill-Answered-By), then the body. Reused by a connection.
     */
    public static final class ResponseParser {

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
}
