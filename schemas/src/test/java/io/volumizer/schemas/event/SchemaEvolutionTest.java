package io.volumizer.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;

/**
 * The topics' subjects are BACKWARD compatible in the registry: a field added to an event must have a default, so
 * that the new schema reads what the one before it wrote.
 */
class SchemaEvolutionTest {

    @Test
    void documentEventsWrittenBeforeAclsAreReadWithoutAnAcl() {
        assertReadsTheSchemaWithout(DocumentEvent.getClassSchema(), "acl");
    }

    @Test
    void importedEventsWrittenBeforeAclsAreReadWithoutAnEffectiveAcl() {
        assertReadsTheSchemaWithout(ImportedEvent.getClassSchema(), "effectiveAcl");
    }

    private static void assertReadsTheSchemaWithout(Schema current, String addedField) {
        Schema before = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(field -> !field.name().equals(addedField))
                        .map(field -> new Schema.Field(field, field.schema())).toList());
        assertThat(current.getField(addedField)).isNotNull();

        var compatibility = SchemaCompatibility.checkReaderWriterCompatibility(current, before);

        assertThat(compatibility.getType()).as(compatibility.getDescription())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }
}
