package io.volumizer.ops.campaign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * One campaign run's results folder, {@code <results root>/<campaign>/<run id>/}, read whole: {@code run.json},
 * {@code progress.json} and the finished steps' files in the steps' order (docs/operations/campaigns.md). The one
 * reader of the format: the runner's resume, the report and the planner's calibration read runs through it.
 */
public record RunFolder(Path path, CampaignRun run, RunProgress progress, List<StepResult> steps) {

    public static final String CAMPAIGN_FILE = "campaign.yaml";
    public static final String RUN_FILE = "run.json";
    public static final String PROGRESS_FILE = "progress.json";
    public static final String STEPS = "steps";

    /** The format's mapper: a field not recorded is left out, one this version does not know is ignored. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_EMPTY)
            .enable(SerializationFeature.INDENT_OUTPUT).build();

    /** @throws IllegalArgumentException when {@code path} holds no run.json */
    public static RunFolder read(Path path) {
        Path runFile = path.resolve(RUN_FILE);
        if (!Files.isRegularFile(runFile)) {
            throw new IllegalArgumentException(path + " is not a campaign run's folder (no " + RUN_FILE + ")");
        }
        Path progressFile = path.resolve(PROGRESS_FILE);
        RunProgress progress = Files.exists(progressFile) ? read(progressFile, RunProgress.class) : RunProgress.NONE;
        List<StepResult> steps = List.of();
        Path stepsFolder = path.resolve(STEPS);
        if (Files.isDirectory(stepsFolder)) {
            // NNN-<id>.json: the names sort in the steps' order.
            try (Stream<Path> files = Files.list(stepsFolder)) {
                steps = files.filter(file -> file.toString().endsWith(".json")).sorted()
                        .map(file -> read(file, StepResult.class)).toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + stepsFolder, e);
            }
        }
        return new RunFolder(path, read(runFile, CampaignRun.class), progress, steps);
    }

    /** The campaign's latest run under {@code root}, if any (a run id sorts as its start time). */
    public static Optional<RunFolder> latest(Path root, String campaign) {
        Path runs = root.resolve(campaign);
        if (!Files.isDirectory(runs)) {
            return Optional.empty();
        }
        try (Stream<Path> folders = Files.list(runs)) {
            return folders.filter(folder -> Files.isRegularFile(folder.resolve(RUN_FILE)))
                    .max(Comparator.comparing(Path::getFileName)).map(RunFolder::read);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + runs, e);
        }
    }

    /** A run's id: its start time to the second, as a folder name ({@code 2026-12-02T12-30-00Z}). */
    public static String runId(Instant started) {
        return started.truncatedTo(ChronoUnit.SECONDS).toString().replace(':', '-');
    }

    /** The campaign's name, as run.json says, else as the folder above the run's says. */
    public String campaign() {
        return run.campaign() != null ? run.campaign()
                : path.getParent() == null ? "" : path.getParent().getFileName().toString();
    }

    /** The run's id, as run.json says, else as its folder's name says. */
    public String runId() {
        return run.runId() != null ? run.runId() : path.getFileName().toString();
    }

    /** How legends, tables and the plan's sources name this run. */
    public String label() {
        return campaign() + " " + runId();
    }

    /** The seconds the finished steps took, summed: what a campaign's time budget counts. */
    public double stepSeconds() {
        return steps.stream().mapToDouble(step -> step.seconds() == null ? 0 : step.seconds()).sum();
    }

    private static <T> T read(Path file, Class<T> type) {
        try {
            return JSON.readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
