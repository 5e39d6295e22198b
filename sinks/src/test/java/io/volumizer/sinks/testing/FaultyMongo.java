package io.volumizer.sinks.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import com.mongodb.MongoSocketReadException;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;

/**
 * The official driver's client, talking to the real server, with a network fault injected on one collection
 * method: its next calls fail as a connection dropped mid-request would, then it works again. Everything else goes
 * to the server as it is.
 */
public final class FaultyMongo {

    private FaultyMongo() {
    }

    /** {@code client}, whose collections' {@code method} fails the next {@code failures} times it is called. */
    public static MongoClient failing(MongoClient client, String method, int failures) {
        return wrap(client, MongoClient.class, method, new AtomicInteger(failures));
    }

    private static <T> T wrap(T target, Class<T> type, String method, AtomicInteger failures) {
        InvocationHandler handler = (proxy, called, args) -> {
            if (type == MongoCollection.class && called.getName().equals(method) && failures.getAndDecrement() > 0) {
                throw new MongoSocketReadException("injected: connection dropped during " + method, new ServerAddress());
            }
            Object result;
            try {
                result = called.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof MongoCollection<?> collection) {
                return wrap(collection, MongoCollection.class, method, failures);
            }
            if (result instanceof MongoDatabase database) {
                return wrap(database, MongoDatabase.class, method, failures);
            }
            return result;
        };
        return type.cast(Proxy.newProxyInstance(FaultyMongo.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
