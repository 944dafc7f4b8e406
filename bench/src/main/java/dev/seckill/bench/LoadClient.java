package dev.seckill.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A closed-loop HTTP/1.1 load generator on one NIO selector thread: {@code connections} keep-alive connections, each
 * sending its next request as soon as the answer to the previous one is in (no pipelining), so every answer belongs
 * to a known request — who sent it, when, how long it took — which wrk's Lua API cannot tell. Frugal on purpose:
 * one thread and the same syscalls per request as wrk, so the 2 cores stay with the system under test.
 *
 * <p>Answers must carry a Content-Length or be chunked (nginx and Helidon always do one of the two). A request in
 * flight when its connection fails or exceeds the timeout is answered with status 0; one still in flight at the
 * deadline is dropped unanswered.
 */
final class LoadClient {

    /** What the connections send. Called on the client's one thread only, so it needs no locking. */
    interface Script {
        /** The next request to send, or null if there is none right now. */
        Request next();

        /** The answer to {@code request}: {@link Answer#NONE} when none came. */
        void answered(Request request, long startNanos, long endNanos, Answer answer);

        /**
         * Whether the script is done once it has nothing to send and nothing is in flight; a script that waits to
         * begin (its connections open first) says false until it has had its turn.
         */
        default boolean finished() {
            return true;
        }

        /** Another connection is established; {@code total} so far. */
        default void connected(long total) {
        }
    }

    /**
     * What the connections went through: connects that completed, and connections that failed (refused, reset,
     * closed by the server mid-request, or timed out), whether or not a request was in flight on them.
     */
    record Wire(long connected, long failed) {
    }

    /** Bytes on the wire and whatever the script wants back with the answer. */
    record Request(byte[] bytes, Object tag) {
    }

    private static final long RECONNECT_PAUSE = Duration.ofMillis(100).toNanos();
    private static final long CHECK_EVERY = Duration.ofMillis(100).toNanos();
    private static final int OPEN_PER_TURN = 256;

    private final InetSocketAddress server;
    private final InetSocketAddress source;
    private final Script script;
    private final long timeoutNanos;
    private final Selector selector;
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final List<Conn> conns = new ArrayList<>();
    private int busy;
    private long connected;
    private long failed;

    private LoadClient(InetSocketAddress server, InetAddress source, Script script, Duration timeout)
            throws IOException {
        this.server = server;
        this.source = source == null ? null : new InetSocketAddress(source, 0);
        this.script = script;
        this.timeoutNanos = timeout.toNanos();
        this.selector = Selector.open();
    }

    /**
     * Runs until the deadline, or until every connection is idle and the script has nothing more to send and is
     * finished.
     */
    static Wire run(InetSocketAddress server, int connections, Script script, long deadlineNanos, Duration timeout)
            throws IOException {
        return run(server, null, connections, script, deadlineNanos, timeout);
    }

    /** As {@link #run(InetSocketAddress, int, Script, long, Duration)}, connecting from {@code source} (null: any). */
    static Wire run(InetSocketAddress server, InetAddress source, int connections, Script script, long deadlineNanos,
                    Duration timeout) throws IOException {
        LoadClient c = new LoadClient(server, source, script, timeout);
        try {
            c.loop(connections, deadlineNanos);
        } finally {
            c.close();
        }
        return new Wire(c.connected, c.failed);
    }

    private void loop(int connections, long deadline) throws IOException {
        long nextCheck = System.nanoTime();
        while (System.nanoTime() < deadline) {
            // The connections open a few hundred per turn while those already open are served: opening thousands
            // takes seconds (each connect also searches for a free port), and an edge cuts a connection that sends
            // nothing for its header timeout.
            boolean opening = conns.size() < connections;
            for (int k = 0; k < OPEN_PER_TURN && conns.size() < connections; k++) {
                Conn c = new Conn();
                conns.add(c);
                connect(c);
            }
            boolean drained = false;
            while (!idle.isEmpty()) {
                Request r = script.next();
                if (r == null) {
                    drained = true;
                    break;
                }
                send(idle.poll(), r);
            }
            if (drained && busy == 0 && script.finished()) {
                return;
            }
            if (opening) {
                selector.selectNow(this::ready);
            } else {
                selector.select(this::ready, 20);
            }
            long now = System.nanoTime();
            if (now >= nextCheck) {
                nextCheck = now + CHECK_EVERY;
                for (Conn c : conns) {
                    if (c.request != null && now - c.start > timeoutNanos) {
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
                script.connected(++connected);
            } else if (key.isWritable()) {
                c.channel.write(c.out);
                if (!c.out.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            } else if (key.isReadable()) {
                read(c);
            }
        } catch (IOException e) {
            fail(c);
        }
    }

    private void connect(Conn c) {
        try {
            c.channel = SocketChannel.open();
            c.channel.configureBlocking(false);
            c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (source != null) {
                c.channel.bind(source);
            }
            c.channel.connect(server);
            c.key = c.channel.register(selector, SelectionKey.OP_CONNECT, c);
        } catch (IOException e) {
            failed++;
            closeChannel(c);
            c.reconnectAt = System.nanoTime() + RECONNECT_PAUSE;
        }
    }

    private void send(Conn c, Request r) {
        c.request = r;
        c.out = ByteBuffer.wrap(r.bytes());
        c.start = System.nanoTime();
        busy++;
        try {
            c.channel.write(c.out);
            c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
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
        int end = c.response.complete(c.in.array(), c.in.position());
        if (end < 0) {
            return;
        }
        long now = System.nanoTime();
        Request r = c.request;
        Answer answer = new Answer(c.response.status, c.response.body(c.in.array(), end), c.response.byEdge);
        boolean close = c.response.close;
        c.reset();
        busy--;
        script.answered(r, c.start, now, answer);
        if (close) {
            closeChannel(c);
            connect(c);
            return;
        }
        Request next = script.next();
        if (next != null) {
            send(c, next);
        } else {
            c.key.interestOps(0);
            idle.add(c);
        }
    }

    /** The connection failed or timed out: answer its request with 0, reconnect after a short pause. */
    private void fail(Conn c) {
        failed++;
        idle.remove(c);
        if (c.request != null) {
            Request r = c.request;
            long start = c.start;
            c.reset();
            busy--;
            script.answered(r, start, System.nanoTime(), Answer.NONE);
        }
        closeChannel(c);
        c.reconnectAt = System.nanoTime() + RECONNECT_PAUSE;
    }

    private void closeChannel(Conn c) {
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException e) {
                // closing a broken connection: nothing left to do
            }
        }
        c.channel = null;
        c.key = null;
        c.reset();
    }

    /**
     * Ends the run with a reset of every connection (SO_LINGER 0) rather than a close: a closing client keeps each
     * of its ports in TIME_WAIT for a minute, and loopback has only ~28,000 ephemeral ports per destination, which
     * a 20,000-connection flood level needs most of (connect() slows to a crawl as they run out).
     */
    private void close() throws IOException {
        for (Conn c : conns) {
            if (c.channel != null) {
                try {
                    c.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                } catch (IOException e) {
                    // a broken connection: closing it is all that is left
                }
            }
            closeChannel(c);
        }
        selector.close();
    }

    private static final class Conn {
        SocketChannel channel;
        SelectionKey key;
        Request request;
        ByteBuffer out;
        ByteBuffer in = ByteBuffer.allocate(4096);
        final ResponseParser response = new ResponseParser();
        long start;
        long reconnectAt;

        void reset() {
            request = null;
            in.clear();
            response.reset();
        }
    }
}
