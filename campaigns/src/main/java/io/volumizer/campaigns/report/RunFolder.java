package io.volumizer.campaigns.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * A campaign's results folder as the runner wrote it (docs/operations/campaign-reports.md): run.json and one JSON file
 * a finished step, read as trees since every field is written only when it was measured.
 */
record RunFolder(Path folder, JsonNode run, List<JsonNode> steps) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static RunFolder read(Path folder) {
        Path runFile = folder.resolve("run.json");
        if (!Files.isRegularFile(runFile)) {
            throw new IllegalArgumentException(folder + " is not a campaign's run folder (no run.json)");
        }
        List<JsonNode> steps = new ArrayList<>();
        Path stepsFolder = folder.resolve("steps");
        if (Files.isDirectory(stepsFolder)) {
            // NNN-<id>.json: the names sort in the steps' order.
            try (Stream<Path> files = Files.list(stepsFolder)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    steps.add(tree(file));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new RunFolder(folder, tree(runFile), List.copyOf(steps));
    }

    private static JsonNode tree(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    String campaign() {
        return run.path("campaign").asText(folder.getParent() == null ? "" : folder.getParent().getFileName().toString());
    }

    String runId() {
        return run.path("runId").asText(folder.getFileName().toString());
    }

    /** How the legends and the side-by-side tables name this run. */
    String label() {
        return campaign() + " " + runId();
    }

    /** The number at a path of a node, or null when it was not measured. */
    static Double number(JsonNode node, String... path) {
        JsonNode value = at(node, path);
        return value.isNumber() ? value.asDouble() : null;
    }

    static JsonNode at(JsonNode node, String... path) {
        JsonNode value = node == null ? MissingNode.getInstance() : node;
        for (String name : path) {
            value = value.path(name);
        }
        return value;
    }

    static String sizeLabel(JsonNode step) {
        return step.path("size").path("label").asText(null);
    }

    /** The repository's documents when the step ended: measured, else the size the step belongs to. */
    static Double repositoryDocuments(JsonNode step) {
        Double after = number(step, "documents", "after");
        return after != null ? after : number(step, "size", "documents");
    }

    /** A stage's rate: the sustained one, else the average over the step. */
    static Double rate(JsonNode stageRate) {
        Double sustained = number(stageRate, "sustainedDocsPerSecond");
        return sustained != null ? sustained : number(stageRate, "docsPerSecond");
    }
}
