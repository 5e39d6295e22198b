package io.volumizer.campaigns.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Arrays;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.RunProgress;
import io.volumizer.ops.campaign.StepResult;

/**
 * Writes one run's results folder, which {@link RunFolder} reads: the campaign file as it was run, {@code run.json},
 * {@code progress.json} and a file per finished step. Every file is written whole and then moved into place, so
 * that a run interrupted at any moment leaves each either as it was or as it is now.
 */
final class RunFolderWriter {

    private final Path folder;

    RunFolderWriter(Path folder) {
        this.folder = folder;
    }

    Path path() {
        return folder;
    }

    /** A new run's folder, with the campaign file copied in. */
    static RunFolderWriter create(Path root, String campaign, Path file, Instant started) throws IOException {
        Path folder = root.resolve(campaign).resolve(RunFolder.runId(started));
        if (Files.exists(folder)) {
            throw new IllegalStateException("a run of " + campaign + " started this second already: " + folder);
        }
        Files.createDirectories(folder.resolve(RunFolder.STEPS));
        Files.copy(file, folder.resolve(RunFolder.CAMPAIGN_FILE));
        return new RunFolderWriter(folder);
    }

    /**
     * JSON a step or the target wrote as the format's {@code type}, strictly: a field the format does not define, or
     * a fraction where it counts, is an error rather than a figure lost on the way to the file.
     */
    static <T> T strictly(JsonNode json, Class<T> type) throws IOException {
        return RunFolder.JSON.readerFor(type).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .without(DeserializationFeature.ACCEPT_FLOAT_AS_INT).readValue(json);
    }

    /** @throws IllegalStateException when {@code file} differs from the campaign file the run began with */
    void checkUnchanged(Path file) throws IOException {
        if (!Arrays.equals(Files.readAllBytes(file), Files.readAllBytes(folder.resolve(RunFolder.CAMPAIGN_FILE)))) {
            throw new IllegalStateException(file + " changed since its unfinished run " + folder + " began: a resume "
                    + "runs the campaign it began with (restore the file, or --new for a new run)");
        }
    }

    void writeRun(CampaignRun run) {
        write(folder.resolve(RunFolder.RUN_FILE), run);
    }

    void writeProgress(RunProgress progress) {
        write(folder.resolve(RunFolder.PROGRESS_FILE), progress);
    }

    /** Writes the result of the step {@code key} ({@code 001-import-1M}); returns it as the format reads it. */
    StepResult writeStep(String key, JsonNode result) throws IOException {
        StepResult step = strictly(result, StepResult.class);
        write(folder.resolve(RunFolder.STEPS).resolve(key + ".json"), step);
        return step;
    }

    private static void write(Path file, Object value) {
        try {
            Path written = file.resolveSibling(file.getFileName() + ".writing");
            RunFolder.JSON.writeValue(written.toFile(), value);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
