package io.volumizer.sinks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.sinks.testing.Events;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;

class ImportedEventSizesTest {

    @Test
    void largePropertyValuesAndFileTextCountInTheEstimate() {
        DocumentEvent document = Events.document("s1", "account", "s1.pdf");
        ImportedEvent small = ImportedEvent.newBuilder().setDocument(document).setPath("/bank/a/s1.pdf")
                .setAncestorIds(java.util.List.of("root", "account")).setImportedAt(java.time.Instant.EPOCH).build();
        DocumentEvent withLargeProperty = DocumentEvent.newBuilder(document)
                .setProperties(Map.of("note", "n".repeat(1_000_000))).build();
        ImportedEvent largeProperty = ImportedEvent.newBuilder(small).setDocument(withLargeProperty).build();
        ImportedEvent largeText = ImportedEvent.newBuilder(small).setFileText("t".repeat(3_000_000)).build();

        assertThat(ImportedEventSizes.estimate(small)).isLessThan(1_000);
        assertThat(ImportedEventSizes.estimate(largeProperty)).as("indexed and copied to the fulltext").isGreaterThanOrEqualTo(2_000_000);
        assertThat(ImportedEventSizes.estimate(largeText)).isGreaterThanOrEqualTo(3_000_000);
    }
}
