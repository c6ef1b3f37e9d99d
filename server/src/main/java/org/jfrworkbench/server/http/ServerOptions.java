package org.jfrworkbench.server.http;

import java.util.List;

/**
 * How a server guards itself: its token (null: open), whether reads need it too, the host names it answers to
 * besides address literals, localhost and this machine's name, and how many connections one client address may hold.
 */
public record ServerOptions(String token, boolean tokenForReads, List<String> allowedHosts, int maxConnectionsPerClient) {
    public static final int DEFAULT_CONNECTIONS_PER_CLIENT = 64;

    public ServerOptions {
        allowedHosts = List.copyOf(allowedHosts);
        if (maxConnectionsPerClient < 1) {
            throw new IllegalArgumentException("connections per client must be at least 1, got " + maxConnectionsPerClient);
        }
    }

    /** An open (token may be null) or token-protected server with the defaults otherwise. */
    public static ServerOptions of(String token) {
        return new ServerOptions(token, false, List.of(), DEFAULT_CONNECTIONS_PER_CLIENT);
    }
}
