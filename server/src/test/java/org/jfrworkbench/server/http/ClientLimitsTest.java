package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;

/** The per-client count of open connections follows their opening and closing, however Jetty reports a close. */
class ClientLimitsTest {
    /** A connection whose end point gives its client's address until its channel is closed, then none, as Jetty's do. */
    private static Connection connection(InetAddress client, AtomicBoolean closed) {
        EndPoint endPoint = (EndPoint) Proxy.newProxyInstance(EndPoint.class.getClassLoader(), new Class<?>[] {EndPoint.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getRemoteSocketAddress" -> closed.get() ? null : new InetSocketAddress(client, 40_000);
                    case "close" -> {
                        closed.set(true);
                        yield null;
                    }
                    case "isOpen" -> !closed.get();
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getEndPoint" -> endPoint;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "connection of " + client;
                    default -> null;
                });
    }

    @Test
    void aConnectionClosedBeforeJettyReportsItLeavesItsClientsCount() throws Exception {
        ClientLimits limits = new ClientLimits(new Server(), 100, 30_000);
        InetAddress client = InetAddress.getByName("192.0.2.7");
        List<Connection> connections = new ArrayList<>();
        List<AtomicBoolean> closed = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            AtomicBoolean c = new AtomicBoolean();
            Connection connection = connection(client, c);
            limits.onOpened(connection);
            connections.add(connection);
            closed.add(c);
        }
        assertEquals(10, limits.openConnections(client));
        for (int i = 0; i < 10; i++) {
            // half closed while still able to tell their address, half after their channel is gone
            if (i % 2 == 1) {
                closed.get(i).set(true);
            }
            limits.onClosed(connections.get(i));
        }
        assertEquals(0, limits.openConnections(client));
        assertEquals(0, limits.tracked(), "nothing kept of closed connections");
    }
}
