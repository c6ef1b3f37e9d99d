package org.jfrworkbench.server.http;

import java.util.List;

/**
 * How a server guards itself: its token (null: open), whether reads need it too, the host names it answers to
 * besides address literals, localhost and this machine's name, how many connections one client address may hold, and
 * how long a connection may stay silent.
 */
public record ServerOptions(String token, boolean tokenForReads, List<String> allowedHosts, int maxConnectionsPerClient,
                            long idleTimeoutMillis) {
    public static final int DEFAULT_CONNECTIONS_PER_CLIENT = 64;
    /** A connection with no bytes in either direction for this long is closed (as Jetty does by default). */
    public static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 30_000;

    public ServerOptions {
        allowedHosts = List.copyOf(allowedHosts);
        if (maxConnectionsPerClient < 1) {
            throw new IllegalArgumentException("connections per client must be at least 1, got " + maxConnectionsPerClient);
        }
        if (idleTimeoutMillis < 1000) {
            throw new IllegalArgumentException("the idle timeout must be at least 1 s, got " + idleTimeoutMillis + " ms");
        }
    }

    /** An open (token may be null) or token-protected server with the defaults otherwise. */
    public static ServerOptions of(String token) {
        return new ServerOptions(token, false, List.of(), DEFAULT_CONNECTIONS_PER_CLIENT, DEFAULT_IDLE_TIMEOUT_MILLIS);
    }
}
