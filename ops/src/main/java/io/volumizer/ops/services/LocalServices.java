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
import java.util.TreeMap;

/**
 * The local services {@code bin/volumizer up} runs, for the tests and benchmarks that inject faults into them or
 * pin them to cores: a service's PID, killing it as a crash would (SIGKILL), and starting or stopping it, all through
 * {@code bin/volumizer}, which owns the services and their PID files, as a user would.
 */
public final class LocalServices {

    /**
     * The state folder, as a picocli default value: the system property {@code volumizer.state} (which
     * {@code bin/volumizer} sets for every Java main), else the working directory's {@code .volumizer}.
     */
    public static final String STATE_FOLDER = "${sys:volumizer.state:-.volumizer}";

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

    /** The state folder the services keep their data, logs and PID files in. */
    public Path state() {
        return state;
    }

    /** The checkout whose bin/volumizer these services are run by. */
    public Path root() {
        return root;
    }

    /** The PID of the running service, if it runs. */
    public OptionalLong pid(String service) {
        Long pid = running().get(service);
        return pid == null ? OptionalLong.empty() : OptionalLong.of(pid);
    }

    /** The PIDs of every service that runs, by name: the API and the optional ones too ({@code bin/volumizer pids}). */
    public Map<String, Long> running() {
        Map<String, Long> running = new TreeMap<>();
        volumizer(Map.of(), List.of("pids")).lines().map(line -> line.split(" ")).filter(fields -> fields.length == 2)
                .forEach(fields -> running.put(fields[0], Long.parseLong(fields[1])));
        return running;
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
}
