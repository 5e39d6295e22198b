package io.volumizer.ops.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.options.steps.RunArguments;
import io.volumizer.options.steps.Step;

/**
 * The runs of a step that were stopped with a savepoint, as the cluster knows them: the finished jobs its REST API
 * lists (for {@code jobstore.expiration-time}), then those the JobManager archived ({@code jobmanager.archive.fs.dir},
 * what Flink's HistoryServer reads), which outlive the cluster. Each gives the savepoint it stopped with and the
 * arguments it was submitted with ({@link RunArguments}).
 */
public final class StoppedRuns {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The archive's setting, as the cluster's configuration names it. */
    public static final String ARCHIVE_SETTING = "jobmanager.archive.fs.dir";

    /** A stopped run: its job, when it ended, the savepoint it stopped with, the arguments it ran with. */
    public record StoppedRun(String jobId, String name, long endTime, String savepoint, List<String> arguments) {
    }

    private StoppedRuns() {
    }

    /** The newest run of {@code step} that stopped with a savepoint and recorded its arguments. */
    public static Optional<StoppedRun> newest(FlinkSessionClient flink, Step step) throws IOException {
        List<StoppedRun> runs = new ArrayList<>();
        for (JsonNode job : flink.jobs()) {
            if (isStoppedRunOf(step, job)) {
                String jobId = job.path("jid").asText();
                stoppedRun(job, flink.checkpoints(jobId), flink.config(jobId)).ifPresent(runs::add);
            }
        }
        Optional<String> archive = flink.clusterSetting(ARCHIVE_SETTING);
        if (archive.isPresent()) {
            runs.addAll(archived(archive.get(), step));
        }
        return runs.stream().max(Comparator.comparingLong(StoppedRun::endTime));
    }

    /** The stopped runs of {@code step} in the JobManager's archive folder (a {@code file:} URI or a path). */
    static List<StoppedRun> archived(String folder, Step step) {
        Path root = folder.startsWith("file:") ? Path.of(URI.create(folder)) : Path.of(folder);
        List<StoppedRun> runs = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return runs;
        }
        try (Stream<Path> files = Files.list(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Map<String, JsonNode> answers = new HashMap<>();
                for (JsonNode entry : JSON.readTree(file.toFile()).path("archive")) {
                    answers.put(entry.path("path").asText(), JSON.readTree(entry.path("json").asText()));
                }
                for (JsonNode job : answers.getOrDefault("/jobs/overview", JSON.createObjectNode()).path("jobs")) {
                    String jobId = job.path("jid").asText();
                    JsonNode checkpoints = answers.get("/jobs/" + jobId + "/checkpoints");
                    JsonNode config = answers.get("/jobs/" + jobId + "/config");
                    if (isStoppedRunOf(step, job) && checkpoints != null && config != null) {
                        stoppedRun(job, checkpoints, config).ifPresent(runs::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the archived jobs in " + root, e);
        }
        return runs;
    }

    /** A job of the step that finished: what stop-with-savepoint leaves (a cancelled one keeps checkpoints only). */
    private static boolean isStoppedRunOf(Step step, JsonNode job) {
        return job.path("name").asText().startsWith(step.jobName() + " ") && "FINISHED".equals(job.path("state").asText());
    }

    private static Optional<StoppedRun> stoppedRun(JsonNode job, JsonNode checkpoints, JsonNode config) {
        JsonNode savepoint = checkpoints.path("latest").path("savepoint");
        String path = savepoint.path("external_path").asText(null);
        Map<String, String> parameters = new HashMap<>();
        config.path("execution-config").path("user-config").fields()
                .forEachRemaining(entry -> parameters.put(entry.getKey(), entry.getValue().asText()));
        Optional<List<String>> arguments = RunArguments.from(parameters);
        if (path == null || !"COMPLETED".equals(savepoint.path("status").asText()) || arguments.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StoppedRun(job.path("jid").asText(), job.path("name").asText(),
                job.path("end-time").asLong(), path, arguments.get()));
    }
}
