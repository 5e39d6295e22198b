package io.volumizer.ops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.options.steps.RunArguments;
import io.volumizer.options.steps.Step;

/** The JobManager's archive of finished jobs, in the form Flink 1.20 writes it (one JSON file of REST answers a job). */
class EndedRunsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path archive;

    @Test
    void theStepsEndedRunsAreFoundNewestFirstWithTheSavepointEachWasStoppedWith() throws Exception {
        archive("a1", "volumizer-import volumizer-demo-import", "FINISHED", 1000, "SYNC_SAVEPOINT", List.of("--group-id", "old"));
        archive("a2", "volumizer-import volumizer-demo-import", "FINISHED", 3000, "SYNC_SAVEPOINT", List.of("--group-id", "new"));
        archive("a3", "volumizer-import-and-index volumizer-demo-import", "FINISHED", 9000, "SYNC_SAVEPOINT", List.of());
        archive("a4", "volumizer-import volumizer-demo-import", "CANCELED", 8000, "SAVEPOINT", List.of());
        archive("a5", "volumizer-import volumizer-demo-import", "FINISHED", 7000, "SAVEPOINT", List.of("--group-id", "bounded"));

        List<EndedRuns.EndedRun> runs = EndedRuns.archived(archive.toUri().toString(), Step.IMPORT).stream()
                .sorted((a, b) -> Long.compare(b.endTime(), a.endTime())).toList();

        assertThat(runs).extracting(EndedRuns.EndedRun::jobId).containsExactly("a4", "a5", "a2", "a1");
        assertThat(runs).extracting(EndedRuns.EndedRun::savepoint).as("only a stop with a savepoint leaves one to resume")
                .containsExactly(null, null, "file:/sp/a2", "file:/sp/a1");
        assertThat(runs.get(2).arguments()).containsExactly("--group-id", "new");
    }

    @Test
    void noArchiveFolderIsNoRun() {
        assertThat(EndedRuns.archived(archive.resolve("missing").toString(), Step.IMPORT)).isEmpty();
    }

    private void archive(String jobId, String name, String state, long endTime, String savepointType, List<String> arguments)
            throws Exception {
        ObjectNode overview = JSON.createObjectNode();
        overview.putArray("jobs").addObject().put("jid", jobId).put("name", name).put("state", state).put("end-time", endTime);
        ObjectNode config = JSON.createObjectNode().put("jid", jobId);
        ObjectNode userConfig = config.putObject("execution-config").putObject("user-config");
        RunArguments.parameters(arguments).forEach(userConfig::put);
        ObjectNode checkpoints = JSON.createObjectNode();
        checkpoints.putObject("latest").putObject("savepoint").put("status", "COMPLETED").put("is_savepoint", true)
                .put("checkpoint_type", savepointType).put("external_path", "file:/sp/" + jobId);
        ObjectNode file = JSON.createObjectNode();
        ArrayNode entries = file.putArray("archive");
        entries.addObject().put("path", "/jobs/overview").put("json", overview.toString());
        entries.addObject().put("path", "/jobs/" + jobId + "/config").put("json", config.toString());
        entries.addObject().put("path", "/jobs/" + jobId + "/checkpoints").put("json", checkpoints.toString());
        Files.writeString(archive.resolve(jobId), file.toString());
    }
}
