package io.volumizer.loadtest.hostile;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.OperatingSystemMXBean;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * This JVM's heap, sampled every 100 ms while a pass runs (the API runs in it): the most used at any sample, the
 * most a collection left (what survived it, not garbage waiting for the next one), the garbage collections' count
 * and time, and the machine's load average.
 */
public final class HeapSampler implements AutoCloseable {

    /** A window's figures. */
    public record Window(long peakUsedBytes, long peakRetainedBytes, long collections, long collectionMillis,
            double loadAtStart, double peakLoad) {
    }

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final OperatingSystemMXBean SYSTEM = ManagementFactory.getOperatingSystemMXBean();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "heap-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private long peakUsed;
    private long peakRetained;
    private double peakLoad;
    private double loadAtStart;
    private long collectionsAtStart;
    private long collectionMillisAtStart;

    public HeapSampler() {
        start();
        timer.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    /** The most this JVM may take (-Xmx). */
    public static long maxHeapBytes() {
        return MEMORY.getHeapMemoryUsage().getMax();
    }

    public static double loadAverage() {
        return SYSTEM.getSystemLoadAverage();
    }

    private synchronized void sample() {
        peakUsed = Math.max(peakUsed, MEMORY.getHeapMemoryUsage().getUsed());
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof com.sun.management.GarbageCollectorMXBean described
                    && described.getLastGcInfo() != null) {
                long after = described.getLastGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                        .filter(pool -> heapPools.contains(pool.getKey())).mapToLong(pool -> pool.getValue().getUsed()).sum();
                peakRetained = Math.max(peakRetained, after);
            }
        }
        peakLoad = Math.max(peakLoad, SYSTEM.getSystemLoadAverage());
    }

    private synchronized void start() {
        peakUsed = 0;
        peakRetained = 0;
        loadAtStart = SYSTEM.getSystemLoadAverage();
        peakLoad = loadAtStart;
        collectionsAtStart = collections();
        collectionMillisAtStart = collectionMillis();
    }

    /** The figures since the last call (or since this sampler started), and a new window from now. */
    public synchronized Window next() {
        sample();
        Window window = new Window(peakUsed, peakRetained, collections() - collectionsAtStart,
                collectionMillis() - collectionMillisAtStart, loadAtStart, peakLoad);
        start();
        return window;
    }

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long collectionMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
