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
class StoppedRunsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path archive;

    @Test
    void theNewestRunOfTheStepStoppedWithASavepointIsFoundWithItsArguments() throws Exception {
        archive("a1", "volumizer-import volumizer-demo-import", "FINISHED", 1000, "file:/sp/old", List.of("--group-id", "old"));
        archive("a2", "volumizer-import volumizer-demo-import", "FINISHED", 3000, "file:/sp/new", List.of("--group-id", "new"));
        archive("a3", "volumizer-import-and-index volumizer-demo-import", "FINISHED", 9000, "file:/sp/other", List.of());
        archive("a4", "volumizer-import volumizer-demo-import", "CANCELED", 8000, "file:/sp/cancelled", List.of());
        archive("a5", "volumizer-import volumizer-demo-import", "FINISHED", 7000, null, List.of("--group-id", "bounded"));

        List<StoppedRuns.StoppedRun> runs = StoppedRuns.archived(archive.toUri().toString(), Step.IMPORT);

        assertThat(runs).extracting(StoppedRuns.StoppedRun::jobId).containsExactlyInAnyOrder("a1", "a2");
        StoppedRuns.StoppedRun newest = runs.stream().max((a, b) -> Long.compare(a.endTime(), b.endTime())).orElseThrow();
        assertThat(newest.savepoint()).isEqualTo("file:/sp/new");
        assertThat(newest.arguments()).containsExactly("--group-id", "new");
    }

    @Test
    void noArchiveFolderIsNoRun() {
        assertThat(StoppedRuns.archived(archive.resolve("missing").toString(), Step.IMPORT)).isEmpty();
    }

    private void archive(String jobId, String name, String state, long endTime, String savepoint, List<String> arguments)
            throws Exception {
        ObjectNode overview = JSON.createObjectNode();
        overview.putArray("jobs").addObject().put("jid", jobId).put("name", name).put("state", state).put("end-time", endTime);
        ObjectNode config = JSON.createObjectNode().put("jid", jobId);
        ObjectNode userConfig = config.putObject("execution-config").putObject("user-config");
        RunArguments.parameters(arguments).forEach(userConfig::put);
        ObjectNode checkpoints = JSON.createObjectNode();
        ObjectNode latest = checkpoints.putObject("latest");
        if (savepoint != null) {
            latest.putObject("savepoint").put("status", "COMPLETED").put("is_savepoint", true).put("external_path", savepoint);
        } else {
            latest.putNull("savepoint");
        }
        ObjectNode file = JSON.createObjectNode();
        ArrayNode entries = file.putArray("archive");
        entries.addObject().put("path", "/jobs/overview").put("json", overview.toString());
        entries.addObject().put("path", "/jobs/" + jobId + "/config").put("json", config.toString());
        entries.addObject().put("path", "/jobs/" + jobId + "/checkpoints").put("json", checkpoints.toString());
        Files.writeString(archive.resolve(jobId), file.toString());
    }
}
