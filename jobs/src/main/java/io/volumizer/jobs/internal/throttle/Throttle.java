package io.volumizer.jobs.internal.throttle;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

import io.volumizer.options.pipeline.PipelineOptions;
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
 * @param targets       the keys obeyed, first first: a command's id (or a target of the job's own), then its step's
 * @param weight        documents per record of the source
 * @param stage         the stage whose metrics tell the limit and the rate
 */
public record Throttle(Properties kafka, String registryUrl, String controlTopic, List<String> targets, double weight,
        String stage) implements Serializable {

    public Throttle {
        targets = List.copyOf(targets);
    }

    /**
     * A step's throttle, or one of a target of its own ({@code ownTarget} not null: a command's id, or the text job's
     * target) which its step's also reaches.
     */
    public static Throttle of(PipelineOptions options, String step, String ownTarget, double weight, String stage) {
        return new Throttle(options.kafka.clientProperties(), options.registry.url, options.controlTopic(),
                ownTarget == null ? List.of(step) : List.of(ownTarget, step), weight, stage);
    }

    ControlFollower follow(Consumer<Optional<ThrottleSetting>> listener) {
        return new ControlFollower(kafka, controlTopic, AvroCodec.forSpecific(new SchemaRegistryClient(registryUrl),
                AvroCodec.valueSubject(controlTopic), ThrottleSetting.class), targets, listener);
    }
}
