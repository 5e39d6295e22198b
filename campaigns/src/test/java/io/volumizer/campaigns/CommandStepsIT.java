package io.volumizer.campaigns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;
import io.volumizer.ops.services.LocalServices;

/**
 * A campaign of a measure with its warm-up, a bulk update and an ACL change (command-steps.yaml beside this class),
 * run as a user runs it, {@code bin/volumizer campaign run}, on the local services: each command's step records the
 * documents it changed and reconciles them with what MongoDB and the index hold.
 */
class CommandStepsIT {

    private final LocalServices services = LocalServices.ofThisCheckout();

    @TempDir
    Path results;

    @Test
    void theBulkAndAclStepsChangeTheRepositoryAndReconcileTheirChangesFromTheStores() throws Exception {
        Path campaign = Path.of("src/test/resources/io/volumizer/campaigns/command-steps.yaml").toAbsolutePath();
        String output = services.volumizer(Map.of(), List.of("campaign", "run", campaign.toString(), "--results",
                results.toString(), "--new"));
        assertThat(output).contains("step 4/4 acl-2000 done").contains("completed").doesNotContain("NOT RECONCILED");
        Path run;
        try (Stream<Path> runs = Files.list(results.resolve("command-steps"))) {
            run = runs.findFirst().orElseThrow();
        }
        // Read through the format's records: the runner wrote every step through them, strictly.
        List<StepResult> steps = RunFolder.read(run).steps();
        assertThat(steps).extracting(StepResult::id).containsExactly("import-2000", "measure-2000", "bulk-2000",
                "acl-2000");

        StepResult measure = steps.get(1);
        assertThat(measure.warmUpSeconds()).isEqualTo(2);
        // The warm-up's requests are not counted: only the measure's 3 s at 5 a second.
        assertThat(measure.latencies()).hasSize(2).allSatisfy(latency -> assertThat(latency.requests()).isEqualTo(15));

        StepResult bulk = steps.get(2);
        assertThat(bulk.command().state()).isEqualTo("COMPLETED");
        long selected = bulk.changes().expected();
        assertThat(selected).isPositive();
        assertThat(bulk.command().processed()).isEqualTo(selected);
        assertThat(bulk.changes().mongodb()).isEqualTo(selected);
        assertThat(bulk.changes().search()).isEqualTo(selected);
        assertThat(bulk.changes().reconciled()).isTrue();
        assertThat(bulk.rates().get(0).stage()).isEqualTo("bulk");
        assertThat(bulk.rates().get(0).documents()).isEqualTo(selected);
        assertThat(bulk.cpu()).anyMatch(cpu -> cpu.msPerDocument() != null);

        StepResult acl = steps.get(3);
        assertThat(acl.command().state()).isEqualTo("COMPLETED");
        assertThat(acl.command().processed()).isPositive();
        assertThat(acl.changes().checked()).isEqualTo(acl.documents().after());
        assertThat(acl.changes().mismatches()).isZero();
        assertThat(acl.changes().mongodb()).isPositive().isEqualTo(acl.changes().search());
        assertThat(acl.rates().get(0).stage()).isEqualTo("acl");
        assertThat(acl.cpu()).anyMatch(cpu -> cpu.msPerDocument() != null);

        for (StepResult result : steps) {
            assertThat(result.reconciliation().reconciled()).as(result.id()).isTrue();
            assertThat(result.documents().after()).as(result.id()).isEqualTo(result.reconciliation().expected());
        }
    }
}
