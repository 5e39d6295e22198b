package io.volumizer.options.pipeline;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.volumizer.options.Options;
import picocli.CommandLine.Option;

/**
 * How the topics a job creates are replicated and kept (a mixin of {@link PipelineOptions}). The defaults suit the
 * local single broker; a production cluster wants 3 replicas and 2 in sync, which the chart sets.
 */
public final class TopicSettings {

    @Option(names = "--topic-replication-factor", defaultValue = "1", description = "Replicas of each partition of "
            + "the topics a job creates: 3 in production, so that a broker lost loses nothing (default: ${DEFAULT-VALUE}).")
    public short replicationFactor;

    @Option(names = "--topic-min-insync-replicas", defaultValue = "1", description = "Replicas that must have a write "
            + "before it is acknowledged (the producers ask for all): 2 of 3 in production (default: ${DEFAULT-VALUE}).")
    public int minInsyncReplicas;

    @Option(names = "--topic-retention", description = "How long the topics a job creates keep records; replaying a "
            + "step from a savepoint needs them kept at least as long as the savepoint is (default: the broker's).")
    public Duration retention;

    /** The topic-level configuration of a topic a job creates. */
    public Map<String, String> configs() {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put("min.insync.replicas", Integer.toString(minInsyncReplicas));
        if (retention != null) {
            configs.put("retention.ms", Long.toString(retention.toMillis()));
        }
        return configs;
    }

    /**
     * A control topic's configs: compacted (the last setting of each key is kept, whatever its age), in sync as the
     * others. It has one partition: its settings are read whole, in order.
     */
    public Map<String, String> controlConfigs() {
        return Map.of("cleanup.policy", "compact", "min.insync.replicas", Integer.toString(minInsyncReplicas));
    }

    /** A control topic's partitions. */
    public static final int CONTROL_PARTITIONS = 1;

    public void validate() {
        Options.require(replicationFactor >= 1, "--topic-replication-factor must be at least 1, was " + replicationFactor);
        Options.require(minInsyncReplicas >= 1 && minInsyncReplicas <= replicationFactor,
                "--topic-min-insync-replicas must be from 1 to --topic-replication-factor, was " + minInsyncReplicas);
        Options.require(retention == null || retention.toMillis() >= 60_000, "--topic-retention must be at least a "
                + "minute, was " + retention);
    }
}
