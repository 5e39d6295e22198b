package io.volumizer.ops.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.options.steps.RunArguments;
import io.volumizer.options.steps.Step;

/**
 * The runs of a step that have ended, as the cluster knows them: the jobs its REST API lists (for
 * {@code jobstore.expiration-time}), then those the JobManager archived ({@code jobmanager.archive.fs.dir}, what
 * Flink's HistoryServer reads), which outlive the cluster. Each gives how it ended, the savepoint it was stopped with
 * (stop-with-savepoint: a job that finished otherwise, or was cancelled or failed, has none to resume from), and the
 * arguments it was submitted with ({@link RunArguments}).
 */
public final class EndedRuns {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The archive's setting, as the cluster's configuration names it. */
    public static final String ARCHIVE_SETTING = "jobmanager.archive.fs.dir";
    private static final Set<String> ENDED = Set.of("FINISHED", "CANCELED", "FAILED");

    /**
     * A run that ended: its job, name, final state and end, the savepoint it was stopped with (null if it was not),
     * and the arguments it ran with (null if it recorded none: a job submitted otherwise).
     */
    public record EndedRun(String jobId, String name, String state, long endTime, String savepoint, List<String> arguments) {
    }

    private EndedRuns() {
    }

    /** The ended runs of {@code step}, newest first. */
    public static List<EndedRun> of(FlinkSessionClient flink, Step step) throws IOException {
        Map<String, EndedRun> runs = new LinkedHashMap<>();
        for (JsonNode job : flink.jobs()) {
            if (isEndedRunOf(step, job)) {
                String jobId = job.path("jid").asText();
                runs.put(jobId, endedRun(job, flink.checkpoints(jobId), flink.config(jobId)));
            }
        }
        Optional<String> archive = flink.clusterSetting(ARCHIVE_SETTING);
        if (archive.isPresent()) {
            archived(archive.get(), step).forEach(run -> runs.putIfAbsent(run.jobId(), run));
        }
        return runs.values().stream().sorted(Comparator.comparingLong(EndedRun::endTime).reversed()).toList();
    }

    /** The ended runs of {@code step} in the JobManager's archive folder (a {@code file:} URI or a path). */
    static List<EndedRun> archived(String folder, Step step) {
        Path root = folder.startsWith("file:") ? Path.of(URI.create(folder)) : Path.of(folder);
        List<EndedRun> runs = new ArrayList<>();
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
                    if (isEndedRunOf(step, job)) {
                        runs.add(endedRun(job, answers.getOrDefault("/jobs/" + jobId + "/checkpoints", JSON.createObjectNode()),
                                answers.getOrDefault("/jobs/" + jobId + "/config", JSON.createObjectNode())));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the archived jobs in " + root, e);
        }
        return runs;
    }

    private static boolean isEndedRunOf(Step step, JsonNode job) {
        return job.path("name").asText().startsWith(step.jobName() + " ") && ENDED.contains(job.path("state").asText());
    }

    private static EndedRun endedRun(JsonNode job, JsonNode checkpoints, JsonNode config) {
        JsonNode savepoint = checkpoints.path("latest").path("savepoint");
        // Stopped with a savepoint: the job finished at it (SYNC_SAVEPOINT); a savepoint taken earlier in a run that
        // then went on to finish, or was cancelled, is not where it stopped.
        boolean stoppedAtIt = "FINISHED".equals(job.path("state").asText())
                && "COMPLETED".equals(savepoint.path("status").asText())
                && "SYNC_SAVEPOINT".equals(savepoint.path("checkpoint_type").asText());
        return new EndedRun(job.path("jid").asText(), job.path("name").asText(), job.path("state").asText(),
                job.path("end-time").asLong(), stoppedAtIt ? savepoint.path("external_path").asText(null) : null,
                FlinkSessionClient.runArguments(config).orElse(null));
    }
}
