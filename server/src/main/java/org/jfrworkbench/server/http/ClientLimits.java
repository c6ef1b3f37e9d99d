package org.jfrworkbench.server.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.javalin.http.Context;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.IdleTimeout;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.server.HttpInput;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * Jetty settings that keep slow or greedy clients from holding the server: an idle timeout per connection, a
 * minimum data rate for request bodies and responses (a client that sends or reads a byte every few seconds is
 * cut off), and at most so many open connections per client address: past that the client's longest-idle
 * connection between requests is closed (a client library's pool of keep-alive connections), or, when every one is
 * busy, the new one.
 */
final class ClientLimits extends AbstractLifeCycle implements Connection.Listener {
    /**
     * Bytes per second below which a request body or a response is abandoned, averaged from the start of the
     * exchange: a LAN or a slow WAN link moves far more, a slowloris upload or a reader that never reads far less.
     */
    static final long MIN_DATA_RATE = 4096;
    /** A request body is held to the minimum rate only after this long: small bodies are not measured at all. */
    static final long BODY_RATE_GRACE_NANOS = 5_000_000_000L;

    private final Server server;
    private final int perClient;
    private final long idleTimeoutMillis;
    private final Map<InetAddress, Set<Connection>> open = new ConcurrentHashMap<>();
    /**
     * Each open connection's client as it was when the connection opened: once its channel is closed, as it often is
     * by the time Jetty tells of the close, the end point no longer gives its address, and a connection looked up by
     * that stayed in its client's set for good (about one close in eight, under load).
     */
    private final Map<Connection, InetAddress> clientOf = new ConcurrentHashMap<>();

    ClientLimits(Server server, int perClient, long idleTimeoutMillis) {
        this.server = server;
        this.perClient = perClient;
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    static void install(Server server, ServerOptions options) {
        server.addBean(new ClientLimits(server, options.maxConnectionsPerClient(), options.idleTimeoutMillis()));
        server.setErrorHandler(new JsonErrors());
    }

    /**
     * Requests Jetty refuses before any handler sees them (a URI or headers too long, a malformed request line) are
     * answered in the API's own form, {"error": "..."}, not with an HTML page.
     */
    static final class JsonErrors extends ErrorHandler {
        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json");
            String message = (reason == null ? HttpStatus.getMessage(status) : reason).replaceAll("[^\\x20-\\x7e]|[\"\\\\]", "?");
            return BufferUtil.toBuffer("{\"error\":\"" + message.toLowerCase(java.util.Locale.ROOT) + "\"}\n");
        }
    }

    static void configure(HttpConfiguration http, ServerOptions options) {
        // not Jetty's request rate: it measures from the body's first byte to the handler's read, so a 1-byte body
        // read 1 ms after it arrived counts as 1,000 bytes a second too slow (see watchBodyRate)
        http.setMinResponseDataRate(MIN_DATA_RATE);
        http.setIdleTimeout(options.idleTimeoutMillis());
    }

    /**
     * Holds a request's body to {@link #MIN_DATA_RATE} once {@link #BODY_RATE_GRACE_NANOS} have passed since the
     * handler began: a sender that trickles a byte now and then (never idle long enough for the idle timeout) is
     * answered 408 instead of holding its upload slot for hours. Works for raw and multipart bodies alike.
     */
    static void watchBodyRate(Context ctx) {
        HttpInput input = Request.getBaseRequest(ctx.req()).getHttpInput();
        long start = System.nanoTime();
        long[] received = new long[1];
        input.addInterceptor(content -> {
            received[0] += content.remaining();
            long late = System.nanoTime() - start - BODY_RATE_GRACE_NANOS;
            if (late > 0 && received[0] < MIN_DATA_RATE * late / 1_000_000_000L) {
                throw new BadMessageException(408, "request body slower than " + MIN_DATA_RATE + " bytes per second");
            }
            return content;
        });
    }

    @Override
    protected void doStart() throws Exception {
        // the connectors exist by now (Javalin adds its own before it starts the server) but are not started yet
        for (Connector c : server.getConnectors()) {
            if (c instanceof AbstractConnector connector) {
                connector.setIdleTimeout(idleTimeoutMillis);
                connector.addEventListener(this);
            }
        }
        super.doStart();
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress client = address(connection.getEndPoint().getRemoteSocketAddress());
        if (client == null) {
            return;
        }
        clientOf.put(connection, client);
        // added inside compute, so that a set is never added to after onClosed removed it
        Connection[] evict = new Connection[1];
        open.compute(client, (k, set) -> {
            Set<Connection> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(connection);
            if (s.size() > perClient) {
                evict[0] = longestIdle(s, connection);
            }
            return s;
        });
        if (evict[0] != null) {
            // a client's HTTP library keeps idle connections open for reuse, and a test or a script that makes many
            // clients leaves many: closing an idle one is what its idle timeout would do anyway, and the new
            // connection carries a request the client is waiting for
            evict[0].getEndPoint().close();
        }
    }

    /** The connection of set, other than fresh, that has waited longest between requests; fresh when all are busy. */
    private static Connection longestIdle(Set<Connection> set, Connection fresh) {
        Connection best = fresh;
        long idleFor = -1;
        for (Connection c : set) {
            if (c != fresh && c instanceof HttpConnection h && h.getHttpChannel().getState().isIdle()
                    && c.getEndPoint() instanceof IdleTimeout t && t.getIdleFor() > idleFor) {
                best = c;
                idleFor = t.getIdleFor();
            }
        }
        return best;
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress client = clientOf.remove(connection);
        if (client == null) {
            return;
        }
        open.computeIfPresent(client, (k, set) -> {
            set.remove(connection);
            return set.isEmpty() ? null : set;
        });
    }

    /** The connections a client has open now (for tests). */
    int openConnections(InetAddress client) {
        Set<Connection> set = open.get(client);
        return set == null ? 0 : set.size();
    }

    /** The connections whose clients are kept (for tests). */
    int tracked() {
        return clientOf.size();
    }

    private static InetAddress address(SocketAddress a) {
        return a instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
