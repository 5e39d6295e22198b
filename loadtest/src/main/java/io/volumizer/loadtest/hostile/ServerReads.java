package io.volumizer.loadtest.hostile;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Connector;

import io.javalin.Javalin;

/**
 * How many bytes the API's Jetty read on each connection, by the client's port, recorded when the connection closes:
 * what a hostile body cost the API to read before its answer (the client's own count includes what the loopback's
 * socket buffers, up to tens of megabytes, took without the API reading any of it).
 */
public final class ServerReads implements Connection.Listener {

    private final Map<Integer, Long> byClientPort = new ConcurrentHashMap<>();
    /** The client's port of each open connection: a closed one no longer says. */
    private final Map<Connection, Integer> open = new ConcurrentHashMap<>();

    /** Listens to every connection {@code app} opens from now on. */
    public static ServerReads on(Javalin app) {
        ServerReads reads = new ServerReads();
        for (Connector connector : app.jettyServer().server().getConnectors()) {
            connector.addEventListener(reads);
        }
        return reads;
    }

    @Override
    public void onOpened(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        if (remote instanceof InetSocketAddress address) {
            open.put(connection, address.getPort());
        }
    }

    @Override
    public void onClosed(Connection connection) {
        Integer port = open.remove(connection);
        if (port != null) {
            byClientPort.put(port, connection.getBytesIn());
        }
    }

    /** The bytes read on the closed connection from {@code clientPort}, forgotten once taken; -1 when unknown. */
    public long take(int clientPort) {
        Long bytes = byClientPort.remove(clientPort);
        return bytes == null ? -1 : bytes;
    }
}
