package io.volumizer.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/** Each rule fails on the classes of {@code violations}, written to break it, and names the offending dependency. */
class ArchitectureRulesTest {
    private static final String ROOT = "io.volumizer.architecture.violations";
    private static final JavaClasses VIOLATIONS = new ClassFileImporter().importPackages(ROOT);

    @Test
    void aCycleBetweenModulesFails() {
        assertThat(violations(ArchitectureRules.modulesFreeOfCycles(ROOT))).contains("module alpha", "module beta");
    }

    @Test
    void aCycleBetweenAModulesPackagesFails() {
        assertThat(violations(ArchitectureRules.packagesFreeOfCycles(ROOT))).contains("alpha.internal", "alpha.feature");
    }

    @Test
    void internalCodeReachingAFeatureFails() {
        assertThat(violations(ArchitectureRules.internalReachesNoFeature(ROOT)))
                .contains("Helper.feature()").doesNotContain("Beta");
    }

    @Test
    void aRunnerImportingAnotherFailsButTheHarnessIsShared() {
        assertThat(violations(ArchitectureRules.runnersIndependent(ROOT + ".bench", "harness")))
                .contains("runner one depends on runner two").doesNotContain("runner harness");
    }

    @Test
    void aHandlerReachingAStoreFails() {
        assertThat(violations(ArchitectureRules.handlersReachStoresThroughServices(ROOT + ".web", ROOT + ".db",
                "io.javalin", ROOT + ".web.Server", List.of("java.net")))).contains("Handler.handle", "Store.read()");
    }

    private static String violations(ArchRule rule) {
        EvaluationResult result = rule.evaluate(VIOLATIONS);
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        return String.join("\n", result.getFailureReport().getDetails());
    }
}
