package io.volumizer.campaigns.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.campaigns.file.CampaignStep;

/**
 * One run's results folder, {@code <results root>/<campaign>/<run id>/}: the campaign file as it was run, {@code
 * run.json} (what ran where, and how it ended), {@code progress.json} ({@link RunProgress}) and a file per finished
 * step under {@code steps/}. Every file is written whole and then moved into place, so that a run interrupted at
 * any moment leaves each either as it was or as it is now. docs/operations/campaigns.md describes the fields.
 */
public final class RunFolder {

    public static final String CAMPAIGN_FILE = "campaign.yaml";
    public static final String RUN_FILE = "run.json";
    public static final String PROGRESS_FILE = "progress.json";
    public static final String STEPS = "steps";

    /** Run statuses, as run.json writes them. */
    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";
    public static final String STOPPED = "stopped";
    public static final String FAILED = "failed";

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path folder;

    private RunFolder(Path folder) {
        this.folder = folder;
    }

    public Path path() {
        return folder;
    }

    /** A run's id: its start time to the second, as a folder name ({@code 2026-12-02T12-30-00Z}). */
    static String runId(Instant started) {
        return started.truncatedTo(ChronoUnit.SECONDS).toString().replace(':', '-');
    }

    /** A new run's folder, with the campaign file copied in. */
    static RunFolder create(Path root, String campaign, Path file, Instant started) throws IOException {
        Path folder = root.resolve(campaign).resolve(runId(started));
        if (Files.exists(folder)) {
            throw new IllegalStateException("a run of " + campaign + " started this second already: " + folder);
        }
        Files.createDirectories(folder.resolve(STEPS));
        Files.copy(file, folder.resolve(CAMPAIGN_FILE));
        return new RunFolder(folder);
    }

    /** The latest run of the campaign that did not complete, if any (a run id sorts as its start time). */
    static Optional<RunFolder> unfinished(Path root, String campaign) throws IOException {
        Path runs = root.resolve(campaign);
        if (!Files.isDirectory(runs)) {
            return Optional.empty();
        }
        try (Stream<Path> folders = Files.list(runs)) {
            return folders.filter(folder -> Files.isRegularFile(folder.resolve(RUN_FILE)))
                    .max(Comparator.comparing(Path::getFileName)).map(RunFolder::new)
                    .filter(run -> !run.run().path("status").asText().equals(COMPLETED));
        }
    }

    /** @throws IllegalStateException when {@code file} differs from the campaign file the run began with */
    void checkUnchanged(Path file) throws IOException {
        if (!Arrays.equals(Files.readAllBytes(file), Files.readAllBytes(folder.resolve(CAMPAIGN_FILE)))) {
            throw new IllegalStateException(file + " changed since its unfinished run " + folder + " began: a resume "
                    + "runs the campaign it began with (restore the file, or --new for a new run)");
        }
    }

    /** How the run ended (or {@value #RUNNING}), as run.json says. */
    public String status() {
        return run().path("status").asText();
    }

    ObjectNode run() {
        return (ObjectNode) read(folder.resolve(RUN_FILE));
    }

    void writeRun(ObjectNode run) {
        write(folder.resolve(RUN_FILE), run);
    }

    RunProgress progress() {
        Path file = folder.resolve(PROGRESS_FILE);
        if (!Files.exists(file)) {
            return RunProgress.NONE;
        }
        JsonNode progress = read(file);
        List<String> completed = JSON.convertValue(progress.path("completed"),
                JSON.getTypeFactory().constructCollectionType(List.class, String.class));
        return new RunProgress(completed, progress.hasNonNull("current") ? progress.get("current").asText() : null);
    }

    void writeProgress(RunProgress progress) {
        ObjectNode json = JSON.createObjectNode();
        json.set("completed", JSON.valueToTree(progress.completed()));
        if (progress.current() != null) {
            json.put("current", progress.current());
        }
        write(folder.resolve(PROGRESS_FILE), json);
    }

    void writeStep(CampaignStep step, ObjectNode result) {
        write(folder.resolve(STEPS).resolve(step.key() + ".json"), result);
    }

    /** The seconds the finished steps took, summed: what a campaign's time budget counts. */
    double stepSeconds() throws IOException {
        try (Stream<Path> steps = Files.list(folder.resolve(STEPS))) {
            return steps.mapToDouble(step -> read(step).path("seconds").asDouble()).sum();
        }
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void write(Path file, JsonNode json) {
        try {
            Path written = file.resolveSibling(file.getFileName() + ".writing");
            JSON.writeValue(written.toFile(), json);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
