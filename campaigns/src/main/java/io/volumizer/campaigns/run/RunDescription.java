package io.volumizer.campaigns.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.bson.Document;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.stores.Stores;
import io.volumizer.stores.mongodb.MongoRepositories;

/**
 * run.json's machine and versions: what the figures were measured on. A version a service does not tell is left
 * out rather than guessed.
 */
final class RunDescription {

    private RunDescription() {
    }

    static ObjectNode of(Path root, Path disk, Stores stores, MongoRepositories mongo, String repository) {
        ObjectNode description = RunFolder.JSON.createObjectNode();
        ObjectNode machine = description.putObject("machine");
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        proc("/proc/meminfo", "MemTotal:").ifPresent(kib -> machine.put("memoryGiB",
                Observations.round(Long.parseLong(kib.replace("kB", "").strip()) / 1024.0 / 1024, 1)));
        proc("/proc/cpuinfo", "model name").ifPresent(cpu -> machine.put("cpu", cpu.replaceFirst("^\\s*:\\s*", "")));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        try {
            machine.put("diskFreeGiB", Observations.round(Files.getFileStore(disk).getUsableSpace() / Math.pow(1024, 3), 1));
        } catch (IOException e) {
            // left out
        }
        ObjectNode versions = description.putObject("versions");
        command(root, "git", "rev-parse", "HEAD").ifPresent(sha -> versions.put("volumizer", sha));
        versions.put("java", System.getProperty("java.version"));
        try {
            versions.put(stores.search().name(), stores.search().version());
        } catch (IOException | RuntimeException e) {
            // left out
        }
        try {
            versions.put("mongodb", mongo.database(repository).runCommand(new Document("buildInfo", 1))
                    .get("version", "?"));
        } catch (RuntimeException e) {
            // left out
        }
        return description;
    }

    private static java.util.Optional<String> proc(String file, String prefix) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(line -> line.startsWith(prefix)).findFirst()
                    .map(line -> line.substring(prefix.length()).strip());
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    private static java.util.Optional<String> command(Path directory, String... command) {
        try {
            Process process = new ProcessBuilder(List.of(command)).directory(directory.toFile()).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.waitFor() == 0 && !output.isEmpty() ? java.util.Optional.of(output) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }
}
