package io.volumizer.sinks.mongodb;

import java.lang.reflect.Method;

import org.apache.flink.api.common.functions.RuntimeContext;

import com.mongodb.internal.connection.PowerOfTwoBufferPool;

/**
 * The MongoDB driver starts a buffer-pool pruner thread when its pool class is first used, and never stops it. In a
 * session cluster each job loads the driver in its own class loader, so every job that talked to MongoDB left a
 * thread behind that kept all of the job's classes loaded: the TaskManager failed with a Metaspace
 * OutOfMemoryError after about fifty job submissions. The pruner is stopped when Flink releases the job's classes.
 */
public final class MongoDriverRelease {

    private static final String HOOK = "volumizer-mongodb-buffer-pool-pruner";

    private MongoDriverRelease() {
    }

    /** Stops the pruner when Flink releases the job's classes from the subtask's TaskManager. */
    public static void registerWith(RuntimeContext context) {
        context.registerUserCodeClassLoaderReleaseHookIfAbsent(HOOK, MongoDriverRelease::stopBufferPoolPruner);
    }

    /**
     * The driver's own {@code disablePruning}, which shuts the pruner down; not public, hence reflection. Code
     * without a runtime context (a job's main method, a source's enumerator and readers) calls it when it is done
     * with MongoDB: the pool works on without pruning, for any other code of the job still using it.
     */
    public static void stopBufferPoolPruner() {
        try {
            Method disablePruning = PowerOfTwoBufferPool.class.getDeclaredMethod("disablePruning");
            disablePruning.setAccessible(true);
            disablePruning.invoke(PowerOfTwoBufferPool.DEFAULT);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot stop the MongoDB driver's buffer-pool pruner: its classes stay "
                    + "loaded after the job", e);
        }
    }
}
