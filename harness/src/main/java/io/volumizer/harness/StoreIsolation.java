package io.volumizer.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.ops.services.LocalServices;

/**
 * Gives the store cores of its own while a measure runs, as if it ran on a host of its own, which is how a store is
 * deployed: the store's process gets the first half of the cores, every other service and this runner the rest
 * ({@code taskset}, Linux). With every service on the same cores, whatever CPU a job spends is taken from the store
 * it writes to, so a job can only match a loop that costs nothing besides the store. Closing gives every process
 * the cores it had.
 */
public final class StoreIsolation implements AutoCloseable {

    /** Walks of a process's threads before giving up, when threads keep ending under taskset. */
    private static final int PIN_ATTEMPTS = 5;

    private final Map<Long, String> allowedBefore = new LinkedHashMap<>();

    private StoreIsolation() {
    }

    /**
     * Pins {@code service}, one of the local services, to the store's cores, and every other running one to the rest.
     *
     * @param named how the caller's user named the service, for the error when it does not run
     */
    public static StoreIsolation ofService(LocalServices services, String service, String named)
            throws IOException, InterruptedException {
        Map<String, Long> running = new LinkedHashMap<>(services.running());
        Long store = running.remove(service);
        if (store == null) {
            throw new IllegalStateException(named + " is not running (bin/volumizer up " + service + ")");
        }
        return start(store, List.copyOf(running.values()), Runtime.getRuntime().availableProcessors());
    }

    public static StoreIsolation start(long storePid, List<Long> otherPids, int cores) throws IOException, InterruptedException {
        if (cores < 2) {
            throw new IllegalStateException("a store of its own needs at least 2 cores, this machine has " + cores);
        }
        StoreIsolation isolation = new StoreIsolation();
        try {
            isolation.pin(storePid, storeCores(cores));
            for (long pid : otherPids) {
                isolation.pin(pid, otherCores(cores));
            }
            isolation.pin(ProcessHandle.current().pid(), otherCores(cores));
        } catch (IOException | InterruptedException | RuntimeException e) {
            isolation.close();
            throw e;
        }
        return isolation;
    }

    /** The store's cores: the first half, at least one. */
    public static String storeCores(int cores) {
        return range(0, Math.max(1, cores / 2) - 1);
    }

    /** Everyone else's: the rest. */
    public static String otherCores(int cores) {
        return range(Math.max(1, cores / 2), cores - 1);
    }

    private static String range(int first, int last) {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }

    private void pin(long pid, String cpuList) throws IOException, InterruptedException {
        allowedBefore.putIfAbsent(pid, allowedCores(pid));
        taskset(pid, cpuList);
    }

    /** The cores a process may run on, as the kernel lists them (e.g. {@code 0-1}). */
    static String allowedCores(long pid) throws IOException {
        Path status = Path.of("/proc/" + pid + "/status");
        if (!Files.exists(status)) {
            throw new IllegalStateException("no process " + pid + " to pin to cores");
        }
        return Files.readAllLines(status).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst()
                .orElseThrow(() -> new IllegalStateException("/proc/" + pid + "/status lists no allowed cores"))
                .substring("Cpus_allowed_list:".length()).strip();
    }

    /** Every thread of the process ({@code -a}), threads started later included. */
    static void taskset(long pid, String cpuList) throws IOException, InterruptedException {
        if (ProcessHandle.of(pid).isEmpty()) {
            // taskset -a answers 0 for a process that is not there: it pins none of its (no) threads.
            throw new IllegalStateException("could not pin process " + pid + " to cores " + cpuList + ": no such process");
        }
        String output = "";
        for (int attempt = 1; attempt <= PIN_ATTEMPTS; attempt++) {
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid))
                    .redirectErrorStream(true).start();
            output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (taskset.waitFor() == 0) {
                return;
            }
            // A thread that ends while taskset walks the process's threads fails it ("No such process"): again
            boolean threadEnded = output.contains("No such process") && ProcessHandle.of(pid).isPresent();
            if (!threadEnded) {
                break;
            }
        }
        throw new IllegalStateException("taskset could not pin process " + pid + " to cores " + cpuList + ": "
                + output.strip());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (Map.Entry<Long, String> before : allowedBefore.entrySet()) {
            if (ProcessHandle.of(before.getKey()).map(ProcessHandle::isAlive).orElse(false)) {
                taskset(before.getKey(), before.getValue());
            }
        }
    }
}
