package io.volumizer.jobs.generate;

import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.jobs.internal.StageMetrics;
import io.volumizer.options.conventions.MetricNames;

/**
 * Turns generator indices into documents, each in the repository the topology routes it to; indices of accounts a
 * customer does not have yield nothing.
 */
final class GenerateDocuments extends RichFlatMapFunction<Long, DocumentEvent> {

    private static final long serialVersionUID = 1L;

    private final GeneratorSettings settings;
    private final Topology topology;
    private transient BankGenerator generator;
    private transient Counter generated;

    GenerateDocuments(GeneratorSettings settings, Topology topology) {
        this.settings = settings;
        this.topology = topology;
    }

    @Override
    public void open(Configuration parameters) {
        generator = new BankGenerator(settings);
        generated = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.GENERATE).counter(MetricNames.GENERATED);
    }

    @Override
    public void flatMap(Long index, Collector<DocumentEvent> out) {
        DocumentEvent document = generator.documentAt(index);
        if (document != null) {
            document.setRepository(topology.route(document, settings.present()));
            generated.inc();
            out.collect(document);
        }
    }
}
