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

    /**
     * One reader writes the file in its order: the rows are not spread over writers, which would let a root's first
     * children reach their partition before it.
     */
    @Test
    void oneReaderWritesTheRowsInFileOrderThroughOneWriter() {
        assertThat(parallelisms(1)).containsEntry("Source: CSV rows", 1).containsEntry("Rows to documents", 1)
                .containsEntry("Documents to Kafka: Writer", 1).containsEntry("Dead letters to Kafka: Writer", 1);
    }

    @Test
    void moreReadersWhenAskedEachWithItsOwnWriter() {
        assertThat(parallelisms(3)).containsEntry("Source: CSV rows", 3).containsEntry("Rows to documents", 3)
                .containsEntry("Documents to Kafka: Writer", 3);
    }
}
