package org.jfrworkbench.server.http;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.javalin.http.Context;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;

/**
 * Notices when the client of a request being worked on hangs up. Jetty does not read from a connection while its
 * request is handled, so a closed socket goes unseen until the answer is written; this watcher registers the
 * socket with a selector of its own and marks the request's client gone when it turns readable. For a GET (whose
 * body is empty and whose client does not pipeline: browsers, curl, Java's HttpClient) readable means the end of
 * the stream or a reset.
 */
final class ClientWatch {
    /** What a handler holds while it works: whether its client is still there. */
    interface Client extends AutoCloseable {
        boolean gone();

        /**
         * As gone, but also asks the socket itself now, not only what the watcher's thread has seen so far: for the
         * moment work is admitted, when a client that asked and left at once may not have been noticed yet.
         */
        default boolean goneNow() {
            return gone();
        }

        @Override
        void close();
    }

    private static final Client UNWATCHED = new Client() {
        @Override
        public boolean gone() {
            return false;
        }

        @Override
        public void close() {
        }
    };

    private final Selector selector;
    private final Queue<Watched> added = new ConcurrentLinkedQueue<>();

    ClientWatch() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        Thread t = new Thread(this::loop, "client-watch");
        t.setDaemon(true);
        t.start();
    }

    /** Watches ctx's connection until the returned client is closed; unwatched for anything but a plain GET. */
    Client watch(Context ctx) {
        if (!"GET".equals(ctx.req().getMethod())) {
            return UNWATCHED;
        }
        EndPoint endPoint = Request.getBaseRequest(ctx.req()).getHttpChannel().getEndPoint();
        if (!(endPoint instanceof SocketChannelEndPoint socket)) {
            return UNWATCHED;
        }
        Watched w = new Watched(socket.getChannel(), selector);
        added.add(w);
        selector.wakeup();
        return w;
    }

    private void loop() {
        while (true) {
            try {
                selector.select();
                for (Watched w; (w = added.poll()) != null; ) {
                    try {
                        w.register(selector);
                    } catch (IOException | RuntimeException e) {
                        // unwatched: the work runs to its end as before
                    }
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    ((Watched) key.attachment()).hungUp();
                }
                selector.selectedKeys().clear();
            } catch (IOException | RuntimeException e) {
                // a channel closed under us: its key is cancelled already; keep watching the others
            }
        }
    }

    private static final class Watched implements Client {
        private final SelectableChannel channel;
        private final Selector selector;
        private volatile boolean gone;
        private volatile boolean closed;
        private volatile SelectionKey key;

        Watched(SelectableChannel channel, Selector selector) {
            this.channel = channel;
            this.selector = selector;
        }

        /** On the selector's thread. */
        void register(Selector selector) throws IOException {
            if (closed) {
                return;
            }
            try {
                key = channel.register(selector, SelectionKey.OP_READ, this);
            } catch (java.nio.channels.CancelledKeyException e) {
                // the watch of this connection's previous request is cancelled but not yet deregistered
                selector.selectNow();
                key = channel.register(selector, SelectionKey.OP_READ, this);
            } catch (ClosedChannelException e) {
                gone = true;
                return;
            }
            if (closed) {
                key.cancel();
            }
        }

        void hungUp() {
            gone = true;
            key.cancel(); // level-triggered: unread bytes would report it again on every select
        }

        @Override
        public boolean gone() {
            return gone || !channel.isOpen();
        }

        @Override
        public boolean goneNow() {
            if (gone()) {
                return true;
            }
            // a selector of its own for one non-blocking look: readable means the end of the stream (see above)
            try (Selector probe = Selector.open()) {
                channel.register(probe, SelectionKey.OP_READ);
                if (probe.selectNow() > 0) {
                    gone = true;
                }
            } catch (IOException | RuntimeException e) {
                // cannot tell: the selector's thread still watches
            }
            return gone;
        }

        @Override
        public void close() {
            closed = true;
            SelectionKey k = key;
            if (k != null) {
                k.cancel();
                selector.wakeup(); // deregisters it before the connection's next request is watched
            }
        }
    }
}
