package io.volumizer.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Waits until the machine is quiet before a measure, so that no run pays for the background work the run before it
 * left behind (Elasticsearch merging the index just written, the MongoDB stand-in flushing its file): on two
 * shared cores that work took a fifth of the next run's rate. Reads the CPU times of {@code /proc/stat}.
 */
public final class QuietMachine {

    private static final Path STAT = Path.of("/proc/stat");

    private final double maxBusy;
    private final Duration maxWait;

    public QuietMachine(double maxBusy, Duration maxWait) {
        this.maxBusy = maxBusy;
        this.maxWait = maxWait;
    }

    /**
     * What every measure of the runners starts on: at most 15% busy over a second, not in the background work
     * (merges, flushes) of the measure before; waited for a minute at most.
     */
    public static QuietMachine forMeasures() {
        return new QuietMachine(0.15, Duration.ofMinutes(1));
    }

    /** Awaits a quiet machine before a measure, and says how long that took when it took a while. */
    public void settle() throws IOException, InterruptedException {
        Duration waited = await();
        if (waited.toSeconds() >= 2) {
            System.out.printf(Locale.ROOT, "  waited %d s for a quiet machine%n", waited.toSeconds());
        }
    }

    /** @return how long it waited; at once where {@code /proc/stat} cannot be read */
    public Duration await() throws IOException, InterruptedException {
        long started = System.nanoTime();
        if (!Files.isReadable(STAT)) {
            return Duration.ZERO;
        }
        long[] before = cpuTimes(Files.readAllLines(STAT).get(0));
        while (System.nanoTime() - started < maxWait.toNanos()) {
            Thread.sleep(1000);
            long[] after = cpuTimes(Files.readAllLines(STAT).get(0));
            if (busy(before, after) <= maxBusy) {
                break;
            }
            before = after;
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** The jiffies of the {@code cpu} line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal. */
    static long[] cpuTimes(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (!fields[0].equals("cpu")) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
        }
        return Arrays.stream(fields, 1, Math.min(fields.length, 9)).mapToLong(Long::parseLong).toArray();
    }

    /** The fraction of the time between two samples that the CPUs were neither idle nor waiting for I/O. */
    static double busy(long[] before, long[] after) {
        long total = 0;
        long idle = 0;
        for (int i = 0; i < after.length; i++) {
            long delta = after[i] - before[i];
            total += delta;
            if (i == 3 || i == 4) {
                idle += delta;
            }
        }
        return total == 0 ? 0 : 1 - (double) idle / total;
    }
}
