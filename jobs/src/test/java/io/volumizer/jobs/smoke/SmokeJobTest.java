package io.volumizer.jobs.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;

import io.volumizer.options.Options;
import io.volumizer.options.steps.SmokeOptions;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The job graph on a MiniCluster, with a bounded test source and a collecting sink instead of Kafka. */
class SmokeJobTest {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final Queue<String> COLLECTED = new ConcurrentLinkedQueue<>();

    @Test
    void countsEveryRecordOncePerKey() throws Exception {
        SmokeOptions options = Options.parse(new SmokeOptions(), "--keys", "4",
                "--records", "1000");
        var source = new DataGeneratorSource<>(index -> index, options.recordsOrUnbounded(), RateLimiterStrategy.noOp(),
                Types.LONG);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);

        new SmokeJob(source, new CollectingSink(), options).run(env);

        List<String> lines = List.copyOf(COLLECTED);
        assertThat(lines).hasSize(1000);
        Map<String, Long> finalCounts = lines.stream().collect(Collectors.toMap(line -> line.split(",")[0],
                line -> Long.parseLong(line.split(",")[2]), Math::max));
        assertThat(finalCounts).containsOnlyKeys("0", "1", "2", "3").allSatisfy((key, count) -> assertThat(count).isEqualTo(250));
    }

    /** Collects into a static queue: sinks are serialized into the cluster. */
    private static final class CollectingSink implements Sink<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<String> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(String element, Context context) {
                    COLLECTED.add(element);
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
