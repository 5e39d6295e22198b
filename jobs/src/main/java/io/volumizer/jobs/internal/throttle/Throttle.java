package io.volumizer.jobs.internal.throttle;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.ThrottleSetting;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/**
 * What a job's source obeys: the settings of its targets on the repository's control topic ({@code bin/volumizer
 * throttle}), each record counted as {@code weight} documents (a generated customer is many).
 *
 * @param kafka         the client properties that reach the control topic
 * @param registryUrl   where the settings' schema is
 * @param controlTopic  the repository's control topic
 * @param targets       the keys obeyed, first first: the job's own (a command's id, file-text), then its step's
 * @param weight        documents per record of the source
 * @param stage         the stage whose metrics tell the limit and the rate
 */
public record Throttle(Properties kafka, String registryUrl, String controlTopic, List<String> targets, double weight,
        String stage) implements Serializable {

    public Throttle {
        targets = List.copyOf(targets);
    }

    /** The throttle of a job of {@code step} with these options: of its targets ({@link PipelineStepOptions#throttleTargets}). */
    public static Throttle of(PipelineStepOptions options, Step step, double weight, String stage) {
        PipelineOptions pipeline = options.pipeline;
        return new Throttle(pipeline.kafka.clientProperties(), pipeline.registry.url, pipeline.controlTopic(),
                options.throttleTargets(step), weight, stage);
    }

    ControlFollower follow(Consumer<Optional<ThrottleSetting>> listener) {
        return new ControlFollower(kafka, controlTopic, AvroCodec.forSpecific(new SchemaRegistryClient(registryUrl),
                AvroCodec.valueSubject(controlTopic), ThrottleSetting.class), targets, listener);
    }
}
