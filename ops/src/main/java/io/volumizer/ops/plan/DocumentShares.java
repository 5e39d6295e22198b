package io.volumizer.ops.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.volumizer.domain.topology.Topology;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Which share of a run's documents each repository of a topology holds, by type: a sample of customers generated and
 * routed as the generate job routes them. The generator's mix (two accounts a customer on average, 60 statements an
 * account) is what the published runs had; a bank's own mix would be counted the same way from its data.
 *
 * @param shares repository, then type, then the share of all the run's documents (they add up to 1)
 */
public record DocumentShares(Map<String, Map<String, Double>> shares) {

    public static DocumentShares of(Topology topology, GeneratorSettings sample) {
        BankGenerator generator = new BankGenerator(sample);
        Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
        topology.repositories().forEach(repository -> counts.put(repository, new TreeMap<>()));
        long all = 0;
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document != null) {
                counts.get(topology.route(document, sample.present())).merge(document.getType(), 1L, Long::sum);
                all++;
            }
        }
        Map<String, Map<String, Double>> shares = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Long>> repository : counts.entrySet()) {
            Map<String, Double> byType = new TreeMap<>();
            for (Map.Entry<String, Long> type : repository.getValue().entrySet()) {
                byType.put(type.getKey(), type.getValue() / (double) all);
            }
            shares.put(repository.getKey(), byType);
        }
        return new DocumentShares(shares);
    }

    /** The share of all documents {@code repository} holds. */
    public double of(String repository) {
        return shares.getOrDefault(repository, Map.of()).values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
