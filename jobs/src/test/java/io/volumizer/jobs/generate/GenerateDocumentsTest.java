package io.volumizer.jobs.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import io.volumizer.domain.topology.Topology;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

class GenerateDocumentsTest {

    private static final GeneratorSettings RUN = new GeneratorSettings(7, 6, 4, 2.0, GeneratorSettings.DEFAULT_LAST_PERIOD, "bank");

    @Test
    void eachCustomerBringsAllItsDocumentsParentsFirstAndTheFirstTheRootAndStates() throws Exception {
        List<DocumentEvent> generated = new ArrayList<>();
        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(
                new GenerateDocuments(RUN, Topology.single("bank"))))) {
            harness.open();
            for (long customer = 0; customer < RUN.customers(); customer++) {
                harness.processElement(customer, 0);
            }
            generated.addAll(harness.extractOutputValues());
        }

        assertThat(generated).extracting(DocumentEvent::getId)
                .containsExactlyElementsOf(new BankGenerator(RUN).documents().stream().map(DocumentEvent::getId).toList());
        List<String> seen = new ArrayList<>();
        for (DocumentEvent document : generated) {
            assertThat(document.getParentId() == null || seen.contains(document.getParentId()))
                    .as("the parent of %s comes before it", document.getId()).isTrue();
            seen.add(document.getId());
        }
    }
}
