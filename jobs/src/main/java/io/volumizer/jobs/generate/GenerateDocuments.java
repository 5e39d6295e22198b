package io.volumizer.jobs.generate;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.options.conventions.MetricNames;

/**
 * Turns a customer into its documents, in the generator's index order (parents first), each in the repository the
 * topology routes it to; the first customer brings the repository's root and states before its own.
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
    public void open(OpenContext openContext) {
        generator = new BankGenerator(settings);
        generated = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.GENERATE).counter(MetricNames.GENERATED);
    }

    @Override
    public void flatMap(Long customer, Collector<DocumentEvent> out) {
        long from = customer == 0 ? 0 : generator.firstIndexOf(customer);
        for (long index = from; index < generator.firstIndexOf(customer + 1); index++) {
            DocumentEvent document = generator.documentAt(index); // null: an account the customer does not have
            if (document != null) {
                document.setRepository(topology.route(document, settings.present()));
                generated.inc();
                out.collect(document);
            }
        }
    }
}
