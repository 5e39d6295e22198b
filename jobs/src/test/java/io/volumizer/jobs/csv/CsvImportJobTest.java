package io.volumizer.jobs.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.csv.source.CsvSource;
import io.volumizer.jobs.csv.source.CsvInputs;

class CsvImportJobTest {

    /** Each operator's parallelism, by its name, in the graph of a job with {@code readers} readers. */
    private static Map<String, Integer> parallelisms(int readers) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(4);
        new CsvImportJob(new CsvSource(CsvInputs.of("unused.csv", null), 1024), readers,
                new ToDocuments("bank", Instant.EPOCH, null, null, null), new DiscardingSink<>(), new DiscardingSink<>())
                .build(env);
        return env.getStreamGraph().getStreamNodes().stream()
                .collect(Collectors.toMap(StreamNode::getOperatorName, StreamNode::getParallelism, (a, b) -> a));
    }

    @Test
    void oneReaderKeepsTheFileOrderWhileTheRowsBecomeDocumentsAtTheJobsParallelism() {
        Map<String, Integer> graph = parallelisms(1);
        assertThat(graph).containsEntry("Source: CSV rows", 1).containsEntry("Rows to documents", 4);
    }

    @Test
    void moreReadersWhenAsked() {
        assertThat(parallelisms(3)).containsEntry("Source: CSV rows", 3).containsEntry("Rows to documents", 4);
    }
}
