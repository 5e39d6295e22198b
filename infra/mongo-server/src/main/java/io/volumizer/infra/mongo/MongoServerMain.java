package io.volumizer.infra.mongo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Serves the MongoDB wire protocol on a local port, storing collections in one H2 MVStore file.
 *
 * <p>No real mongod can be installed on these machines; this stands in for it. Everything else in Volumizer talks
 * to it only through the official MongoDB driver, so a real MongoDB replaces it by changing the connection URI.
 */
@Command(name = "mongo-server", mixinStandardHelpOptions = true,
        description = "MongoDB-protocol server backed by an H2 MVStore file (local stand-in for mongod).")
public final class MongoServerMain implements Callable<Integer> {

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "27017", description = "Port to bind (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--data-file", required = true, description = "H2 MVStore file holding every database.")
    Path dataFile;

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(dataFile.toAbsolutePath().getParent());
        H2Backend backend = new ComparableKeyH2Backend(MVStore.open(dataFile.toString()));
        MongoServer server = new MongoServer(backend);
        CountDownLatch stopped = new CountDownLatch(1);
        // Closing the backend commits the MVStore: without it the last writes are lost on SIGTERM.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "mongo-server-shutdown"));
        server.bind(host, port);
        System.out.printf("mongo-server listening on %s:%d, data in %s%n", host, port, dataFile);
        stopped.await();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MongoServerMain()).execute(args));
    }
}
