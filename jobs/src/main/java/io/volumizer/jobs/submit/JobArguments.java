package io.volumizer.jobs.submit;

import java.util.ArrayList;
import java.util.List;

import io.volumizer.jobs.options.PipelineOptions;

/** Program arguments for submitting jobs: the pipeline options as given, then per-job options on top. */
public final class JobArguments {

    private JobArguments() {
    }

    /** Every pipeline option, so that all jobs of a run agree on topics, stores and checkpointing. */
    public static List<String> of(PipelineOptions pipeline) {
        return List.of("--bootstrap-servers", pipeline.bootstrapServers, "--registry-url", pipeline.registryUrl,
                "--documents-topic", pipeline.documentsTopic, "--imported-topic", pipeline.importedTopic,
                "--deadletter-topic", pipeline.deadletterTopic, "--partitions", Integer.toString(pipeline.partitions),
                "--mongodb-uri", pipeline.mongodbUri, "--mongodb-database", pipeline.mongodbDatabase,
                "--elasticsearch-url", pipeline.elasticsearchUrl, "--index-prefix", pipeline.indexPrefix,
                "--checkpoint-interval", pipeline.checkpointInterval.toString(),
                "--parallelism", Integer.toString(pipeline.parallelism));
    }

    /** {@code base} with each option/value pair of {@code overrides} replacing the same option, or appended. */
    public static List<String> with(List<String> base, String... overrides) {
        List<String> args = new ArrayList<>(base);
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            int at = args.indexOf(overrides[i]);
            if (at >= 0) {
                args.set(at + 1, overrides[i + 1]);
            } else {
                args.add(overrides[i]);
                args.add(overrides[i + 1]);
            }
        }
        return args;
    }
}
