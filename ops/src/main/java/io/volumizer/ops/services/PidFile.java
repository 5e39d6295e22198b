package io.volumizer.ops.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The PID file of a local service, shared by {@code bin/volumizer} ({@code record_pid} and {@code service_pid} in
 * {@code bin/lib/services.sh}) and Java ({@link LocalServices}). The format:
 * <ul>
 * <li>{@code $STATE/run/<service>.pid} holds one line, {@code "<pid> <start ticks>\n"};</li>
 * <li>the start ticks are when that process started, in clock ticks since boot: field 22 of
 * {@code /proc/<pid>/stat}, counted after the parenthesized name (which may hold spaces);</li>
 * <li>the file names the service only while the process holding that PID started at those ticks: after a reboot,
 * or once the service has exited, the PID may belong to an unrelated process, which must never be taken for the
 * service, let alone signalled. A file with one field, or whose start ticks differ, names no service.</li>
 * </ul>
 */
public record PidFile(long pid, long startTicks) {

    private static final String SUFFIX = ".pid";

    /** Where a service's PID file is, in the state folder. */
    public static Path path(Path state, String service) {
        return folder(state).resolve(service + SUFFIX);
    }

    /** Every PID file that holds a PID and start ticks, by service. */
    public static Map<String, PidFile> all(Path state) {
        Map<String, PidFile> all = new TreeMap<>();
        if (Files.isDirectory(folder(state))) {
            try (Stream<Path> files = Files.list(folder(state))) {
                files.filter(file -> file.getFileName().toString().endsWith(SUFFIX)).forEach(file -> read(file).ifPresent(
                        pidFile -> all.put(serviceOf(file), pidFile)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    private static String serviceOf(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - SUFFIX.length());
    }

    private static Path folder(Path state) {
        return state.resolve("run");
    }

    /** The file's PID and start ticks; empty when there is no file or it does not hold both. */
    public static Optional<PidFile> read(Path file) {
        String[] fields;
        try {
            fields = Files.readString(file).trim().split("\\s+");
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (fields.length != 2) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PidFile(Long.parseLong(fields[0]), Long.parseLong(fields[1])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The record of a running process, as {@code bin/volumizer} makes it when it starts a service. */
    public static PidFile of(ProcessHandle process) {
        long pid = process.pid();
        return new PidFile(pid, startTicks(pid).orElseThrow(() -> new IllegalStateException("no process " + pid)));
    }

    /** Whether the process holding this PID is still the one that was recorded. */
    public boolean isCurrent() {
        OptionalLong started = startTicks(pid);
        return started.isPresent() && started.getAsLong() == startTicks;
    }

    public void write(Path file) {
        try {
            Files.writeString(file, pid + " " + startTicks + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** When the process started, in clock ticks since boot; empty once it is gone. */
    private static OptionalLong startTicks(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(stat.substring(stat.lastIndexOf(") ") + 2).split(" ")[19]));
    }
}
