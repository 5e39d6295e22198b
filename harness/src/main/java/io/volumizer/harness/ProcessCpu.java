package io.volumizer.harness;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * CPU time the local services' processes have spent (user and system, as the kernel counts it), grouped as the
 * calibration names them. A stage's cost per document is read over a window of its progress (past its job's start,
 * before its tail), less what the processes spend idle.
 */
public final class ProcessCpu {

    private final Map<String, List<Long>> groups;

    /** @param groups each group's process ids */
    public ProcessCpu(Map<String, List<Long>> groups) {
        this.groups = Map.copyOf(groups);
    }

    /** Per group, the CPU seconds its processes have spent so far. */
    public Map<String, Double> read() {
        Map<String, Double> seconds = new LinkedHashMap<>();
        groups.forEach((group, pids) -> seconds.put(group, pids.stream().mapToDouble(ProcessCpu::seconds).sum()));
        return seconds;
    }

    private static double seconds(long pid) {
        Duration spent = ProcessHandle.of(pid).flatMap(process -> process.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("cannot read the CPU time of process " + pid
                        + ": it is gone, or not this user's"));
        return spent.toNanos() / 1e9;
    }

    /** Per group, CPU seconds a second these processes spend over {@code duration} (while nothing runs). */
    public Map<String, Double> idleRates(Duration duration) throws InterruptedException {
        Map<String, Double> before = read();
        long start = System.nanoTime();
        Thread.sleep(duration.toMillis());
        Map<String, Double> after = read();
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> rates = new LinkedHashMap<>();
        after.forEach((group, spent) -> rates.put(group, (spent - before.get(group)) / seconds));
        return rates;
    }

    /** A window from {@code from} to {@code to} (shares) of a stage's {@code documents}. */
    public Window window(long documents, double from, double to) {
        return new Window(this::read, System::nanoTime, documents, from, to);
    }

    /** The CPU spent between two counts of a stage's progress, told to {@link #observe} as it reads them. */
    public static final class Window {

        private final Supplier<Map<String, Double>> cpu;
        private final LongSupplier nanoTime;
        private final long fromCount;
        private final long toCount;
        private Reading first;
        private Reading last;

        private record Reading(long count, long nanos, Map<String, Double> cpu) {
        }

        Window(Supplier<Map<String, Double>> cpu, LongSupplier nanoTime, long documents,
                double from, double to) {
            this.cpu = cpu;
            this.nanoTime = nanoTime;
            this.fromCount = (long) Math.ceil(documents * from);
            this.toCount = (long) Math.ceil(documents * to);
        }

        /** A count of the stage's documents, as read: the first at or past each end of the window is kept. */
        public void observe(long count) {
            if (first == null && count >= fromCount) {
                first = new Reading(count, nanoTime.getAsLong(), cpu.get());
            } else if (first != null && last == null && count >= toCount && count > first.count()) {
                last = new Reading(count, nanoTime.getAsLong(), cpu.get());
            }
        }

        /** Per group, CPU seconds a document cost in the window, less the group's idle rate over its time. */
        public Map<String, Double> perDocument(Map<String, Double> idleRates) {
            if (last == null) {
                throw new IllegalStateException("the stage's progress was not read between " + fromCount + " and "
                        + toCount + " documents: too short a run to measure");
            }
            long documents = last.count() - first.count();
            double seconds = seconds();
            Map<String, Double> perDocument = new LinkedHashMap<>();
            last.cpu().forEach((group, spent) -> perDocument.put(group, Math.max(0, spent - first.cpu().get(group)
                    - idleRates.getOrDefault(group, 0.0) * seconds) / documents));
            return perDocument;
        }

        /** Documents a second through the window. */
        public double rate() {
            return (last.count() - first.count()) / seconds();
        }

        private double seconds() {
            return (last.nanos() - first.nanos()) / 1e9;
        }
    }
}
