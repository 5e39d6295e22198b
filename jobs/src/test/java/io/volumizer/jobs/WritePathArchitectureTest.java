package io.volumizer.jobs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.search.SearchWriter;

/** The jobs write documents into the stores only through the sinks (docs/decisions/sinks.md). */
class WritePathArchitectureTest {

    private static final JavaClasses JOBS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.volumizer.jobs");

    @Test
    void noJobIndexesButThroughTheSearchSink() {
        noClasses().should().dependOnClassesThat().areAssignableTo(SearchWriter.class)
                .orShould().dependOnClassesThat().resideInAPackage("io.volumizer.stores.search.elasticsearch..")
                .because("the search sink writes the index; the jobs reach its writer only through sinks/")
                .check(JOBS);
    }

    @Test
    void noJobWritesDocumentsIntoMongoDbButThroughTheSinks() {
        noClasses().should().callMethod(MongoDocumentStore.class, "write", List.class)
                .orShould().callMethod(MongoDocumentStore.class, "storeFileTexts", List.class)
                .because("the MongoDB and file-text sinks write the documents; the jobs reach them through sinks/")
                .check(JOBS);
    }
}
