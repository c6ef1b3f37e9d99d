package org.jfrworkbench.server.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;

import io.javalin.http.Context;

/**
 * Slots for requests that hold a thread for as long as their client takes (receiving an upload, sending an
 * original): so many in all and a few per client address, so that one slow client cannot take them all from the
 * others. A request without a slot is answered 503 at once.
 */
final class Slots {
    private final String what;
    private final int total;
    private final int perClient;
    private final Map<InetAddress, Integer> held = new HashMap<>();
    private int used;

    Slots(String what, int total, int perClient) {
        this.what = what;
        this.total = total;
        this.perClient = perClient;
    }

    /** A slot for ctx's client, released by closing it; throws {@link OverloadedException} when there is none. */
    AutoCloseable take(Context ctx) {
        InetAddress client = address(ctx.req().getRemoteAddr());
        synchronized (this) {
            int mine = held.getOrDefault(client, 0);
            if (used >= total) {
                throw new OverloadedException("the server has " + total + " " + what + " already", 5);
            }
            if (mine >= perClient) {
                throw new OverloadedException("this client has " + perClient + " " + what + " already", 5);
            }
            used++;
            held.put(client, mine + 1);
        }
        return () -> {
            synchronized (this) {
                used--;
                held.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
            }
        };
    }

    private static InetAddress address(String remote) {
        try {
            return InetAddress.getByName(remote); // an address literal: no lookup
        } catch (java.net.UnknownHostException e) {
            return InetAddress.getLoopbackAddress();
        }
    }
}
