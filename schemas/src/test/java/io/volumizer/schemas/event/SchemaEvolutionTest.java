package io.volumizer.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;

/**
 * The topics' subjects are BACKWARD compatible in the registry: a field added to an event must have a default, so
 * that the new schema reads what the one before it wrote.
 */
class SchemaEvolutionTest {

    /**
     * The fields the ACLs added: a document's own ACL, the effective one the import computes, and the parent's version
     * a change was made against (an ACL change's propagation).
     */
    private static final Set<String> ADDED_FOR_ACLS = Set.of("acl", "effectiveAcl", "parentVersion");

    /** {@code current} as it was before ACLs: without their fields, in it or in the records it holds. */
    static Schema beforeAcls(Schema current) {
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(field -> !ADDED_FOR_ACLS.contains(field.name()))
                        .map(field -> new Schema.Field(field, field.schema().getType() == Schema.Type.RECORD
                                ? beforeAcls(field.schema()) : field.schema()))
                        .toList());
    }

    @Test
    void documentEventsWrittenBeforeAclsAreReadWithoutAnAcl() {
        assertReadsWhatTheSchemaBeforeWrote(DocumentEvent.getClassSchema());
    }

    @Test
    void importedEventsWrittenBeforeAclsAreReadWithoutAnEffectiveAcl() {
        assertReadsWhatTheSchemaBeforeWrote(ImportedEvent.getClassSchema());
    }

    private static void assertReadsWhatTheSchemaBeforeWrote(Schema current) {
        Schema before = beforeAcls(current);
        assertThat(before.getFields().size()).isLessThan(current.getFields().size());

        var compatibility = SchemaCompatibility.checkReaderWriterCompatibility(current, before);

        assertThat(compatibility.getType()).as(compatibility.getDescription())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }
}
