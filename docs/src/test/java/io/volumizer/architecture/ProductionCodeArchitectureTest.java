package io.volumizer.architecture;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every module's production classes, from this module's test classpath: it sits on top of all of them. */
class ProductionCodeArchitectureTest {
    private static final String ROOT = "io.volumizer";
    /** MongoDB's driver, the search engines' HTTP client, S3's SDK and the file system under the blob store. */
    private static final List<String> STORE_DRIVERS = List.of("com.mongodb", "org.elasticsearch.client",
            "org.apache.http", "software.amazon.awssdk", "java.nio.file");
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void modulesFormNoCycle() {
        ArchitectureRules.modulesFreeOfCycles(ROOT).check(production);
    }

    @Test
    void eachModulesPackagesFormNoCycle() {
        ArchitectureRules.packagesFreeOfCycles(ROOT).check(production);
    }

    @Test
    void internalPackagesReachNoFeature() {
        ArchitectureRules.internalReachesNoFeature(ROOT).check(production);
    }

    @Test
    void noBenchmarkRunnerImportsAnother() {
        ArchitectureRules.runnersIndependent(ROOT + ".benchmarks").check(production);
    }

    @Test
    void apiHandlersReachTheStoresOnlyThroughServices() {
        ArchitectureRules.handlersReachStoresThroughServices(ROOT + ".api", ROOT + ".stores", "io.javalin",
                "io.volumizer.api.ApiServer", STORE_DRIVERS).check(production);
    }
}
