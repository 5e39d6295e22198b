package io.volumizer.jobs.internal.throttle;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.pipeline.TopicSettings;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;

/**
 * A source whose readers emit no faster than a {@link Throttle} allows, and nothing while it is paused: the limit
 * is applied where records enter the job, as Flink's own rate-limited sources do, because an operator further on
 * could only wait by holding its task's thread, and a task held while paused would neither take checkpoints nor
 * hear "resume". Splits, checkpoints and the enumerator are the wrapped source's: what is read, and from where a
 * restart reads again, does not change; only when.
 */
public final class ThrottledSource<T, S extends SourceSplit, E> implements Source<T, S, E>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final Source<T, S, E> source;
    private final Throttle throttle;

    public ThrottledSource(Source<T, S, E> source, Throttle throttle) {
        this.source = source;
        this.throttle = throttle;
    }

    /**
     * {@code source}, emitting no faster than the throttles of the job's targets ({@link
     * PipelineStepOptions#throttleTargets}: its own, if it has one, and {@code step}'s) on the repository's control
     * topic allow, each record
     * counted as {@code weight} documents; the control topic is created, compacted, if missing.
     */
    public static <T, S extends SourceSplit, E> ThrottledSource<T, S, E> of(Source<T, S, E> source,
            PipelineStepOptions options, Step step, double weight, String stage) {
        PipelineOptions pipeline = options.pipeline;
        Connectors.ensureTopics(pipeline, pipeline.topicSettings.controlConfigs(), TopicSettings.CONTROL_PARTITIONS,
                pipeline.controlTopic());
        return new ThrottledSource<>(source, Throttle.of(options, step, weight, stage));
    }

    @Override
    public Boundedness getBoundedness() {
        return source.getBoundedness();
    }

    @Override
    public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
        return new ThrottledSourceReader<>(source.createReader(context), throttle, context, System::nanoTime);
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context) throws Exception {
        return source.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint) throws Exception {
        return source.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<S> getSplitSerializer() {
        return source.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
        return source.getEnumeratorCheckpointSerializer();
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<T> getProducedType() {
        if (source instanceof ResultTypeQueryable<?> typed) {
            return (TypeInformation<T>) typed.getProducedType();
        }
        throw new IllegalStateException(source + " does not tell the type it produces: give it to fromSource");
    }
}
