package io.volumizer.stores.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.ServerAddress;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;

/**
 * The official driver's client, talking to the real server, with a server behaviour injected into its collections'
 * calls: a dropped connection, or the answer another server gives. Everything else goes to the server as it is.
 */
public final class FaultyMongo {

    /** What a collection call does instead of, or around, the real call. */
    private interface Fault {
        Object call(Method method, Callable<Object> real) throws Exception;
    }

    private FaultyMongo() {
    }

    /** {@code client}, whose collections' {@code method} fails the next {@code failures} times it is called. */
    public static MongoClient failing(MongoClient client, String method, int failures) {
        AtomicInteger left = new AtomicInteger(failures);
        return wrap(client, MongoClient.class, (called, real) -> {
            if (called.getName().equals(method) && left.getAndDecrement() > 0) {
                throw new MongoSocketReadException("injected: connection dropped during " + method, new ServerAddress());
            }
            return real.call();
        });
    }

    /**
     * {@code client}, whose bulk writes' duplicate-key errors name {@code index}, whichever unique index the key is
     * in: which one a server names is its choice (the local stand-in named the (parentId, name) index, after a
     * restart, for documents whose id was stored).
     */
    public static MongoClient namingIndex(MongoClient client, String index) {
        return wrap(client, MongoClient.class, (called, real) -> {
            try {
                return real.call();
            } catch (MongoBulkWriteException e) {
                if (!called.getName().equals("bulkWrite")) {
                    throw e;
                }
                List<BulkWriteError> renamed = e.getWriteErrors().stream().map(error -> new BulkWriteError(
                        error.getCode(), error.getMessage().replaceFirst("index: \\S+", "index: " + index),
                        error.getDetails(), error.getIndex())).toList();
                throw new MongoBulkWriteException(e.getWriteResult(), renamed, e.getWriteConcernError(),
                        e.getServerAddress(), e.getErrorLabels());
            }
        });
    }

    private static <T> T wrap(T target, Class<T> type, Fault fault) {
        InvocationHandler handler = (proxy, called, args) -> {
            Callable<Object> real = () -> {
                try {
                    return called.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
                }
            };
            Object result = type == MongoCollection.class ? fault.call(called, real) : real.call();
            if (result instanceof MongoCollection<?> collection) {
                return wrap(collection, MongoCollection.class, fault);
            }
            if (result instanceof MongoDatabase database) {
                return wrap(database, MongoDatabase.class, fault);
            }
            return result;
        };
        return type.cast(Proxy.newProxyInstance(FaultyMongo.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
