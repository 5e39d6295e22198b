package io.volumizer.ops.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The local services {@code bin/volumizer up} runs, for the tests and benchmarks that inject faults into them: a
 * service's PID (from its PID file, trusted as {@code bin/volumizer} trusts it: only while the process holding it
 * started when recorded), killing it as a crash would (SIGKILL), and starting or stopping it with
 * {@code bin/volumizer}, as a user would.
 */
public final class LocalServices {

    private final Path root;
    private final Path state;

    public LocalServices(Path root, Path state) {
        this.root = root;
        this.state = state;
    }

    /**
     * The services of the checkout named by the system property {@code volumizer.root} (set by {@code bin/volumizer}),
     * else the one above the working directory, with the state folder of the system property {@code volumizer.state}
     * (set by {@code bin/volumizer}), else the checkout's {@code .volumizer}.
     */
    public static LocalServices ofThisCheckout() {
        String root = System.getProperty("volumizer.root");
        for (Path dir = root != null ? Path.of(root) : Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/volumizer"))) {
                String state = System.getProperty("volumizer.state");
                return new LocalServices(dir, state == null ? dir.resolve(".volumizer") : Path.of(state));
            }
        }
        throw new IllegalStateException("bin/volumizer not found above " + Path.of("").toAbsolutePath());
    }

    /** The PID of the running service, if it runs. */
    public OptionalLong pid(String service) {
        Path file = state.resolve("run").resolve(service + ".pid");
        try {
            if (!Files.exists(file)) {
                return OptionalLong.empty();
            }
            String[] recorded = Files.readString(file).trim().split("\\s+");
            if (recorded.length == 2 && recorded[1].equals(startTime(Long.parseLong(recorded[0])))) {
                return OptionalLong.of(Long.parseLong(recorded[0]));
            }
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the service with SIGKILL, as a crash or an OOM killer would, and waits until it is gone. */
    public void kill(String service) {
        long pid = pid(service).orElseThrow(() -> new IllegalStateException(service + " is not running"));
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        process.destroyForcibly();
        process.onExit().join();
    }

    /** Starts the services with {@code bin/volumizer up}, which waits until each is healthy. */
    public void start(String... services) {
        start(Map.of(), services);
    }

    /**
     * Starts the services with settings of {@code conf/volumizer.conf} overridden, as environment variables (say,
     * {@code ES_WRITE_QUEUE_SIZE}).
     */
    public void start(Map<String, String> settings, String... services) {
        volumizer(settings, with("up", services));
    }

    /** Stops the services with {@code bin/volumizer down}. */
    public void stop(String... services) {
        volumizer(Map.of(), with("down", services));
    }

    /** Runs {@code bin/volumizer <args>} on these services and returns what it printed; fails with it if it fails. */
    public String volumizer(Map<String, String> settings, List<String> args) {
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/volumizer").toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
        builder.environment().putAll(settings);
        builder.environment().put("VOLUMIZER_STATE", state.toString());
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("bin/volumizer " + String.join(" ", args) + " failed:\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static List<String> with(String command, String... services) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(services));
        return args;
    }

    /** When the process started, in clock ticks since boot: field 22 of /proc/<pid>/stat, counted after the name. */
    private static String startTime(long pid) throws IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return "";
        }
        String fields = Files.readString(stat);
        return fields.substring(fields.lastIndexOf(") ") + 2).split(" ")[19];
    }
}
