package io.volumizer.campaigns.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.schemas.event.Permission;

class CampaignFileTest {

    private static Campaign parse(String yaml) {
        return CampaignFile.parse("c.yaml", yaml);
    }

    private static CampaignException refused(String yaml) {
        return (CampaignException) org.assertj.core.api.Assertions.catchThrowable(() -> parse(yaml));
    }

    @Test
    void sizesAndEachRunEveryStepAtEverySizeInOrder() {
        Campaign campaign = parse("""
                name: growth
                stop: {diskFreeBelow: 10GiB, after: 3h}
                sizes: [1M, 2.5M]
                each:
                  - import: {to: size}
                  - measure: {navigation: 10, search: 5, seconds: 60}
                  - reindex: {rangeSize: 5000}
                """);
        assertThat(campaign.steps()).extracting(CampaignStep::key).containsExactly("001-import-1M", "002-measure-1M",
                "003-reindex-1M", "004-import-2.5M", "005-measure-2.5M", "006-reindex-2.5M");
        assertThat(campaign.steps().get(3).spec()).isEqualTo(new StepSpec.Import(new Size("2.5M", 2_500_000), 0));
        assertThat(campaign.steps().get(1).spec()).isEqualTo(new StepSpec.Measure(10, 5, Duration.ofSeconds(60),
                CampaignFile.DEFAULT_WARM_UP));
        assertThat(campaign.steps().get(2).spec()).isEqualTo(new StepSpec.Reindex(5000));
        assertThat(campaign.stop()).isEqualTo(new Campaign.Stop(10L << 30, Duration.ofHours(3)));
        assertThat(campaign.repository()).isEqualTo("growth");
        assertThat(campaign.largestSize()).isEqualTo(2_500_000);
        assertThat(campaign.steps().get(4).line()).isEqualTo(6);
    }

    @Test
    void anExplicitListGivesEachStepTheSizeOfTheLastImport() {
        Campaign campaign = parse("""
                name: faults
                repository: faulty
                steps:
                  - import: {to: 5k, rate: 500}
                  - fault: {kill: flink-taskmanager}
                  - import: {to: 10k}
                  - fault: {down: mongodb, for: 30s}
                  - measure: {search: 2, seconds: 5, warmUp: 0}
                """);
        assertThat(campaign.steps()).extracting(CampaignStep::id).containsExactly("import-5k", "fault-5k",
                "import-10k", "fault-10k", "measure-10k");
        assertThat(campaign.steps().get(4).spec()).isEqualTo(new StepSpec.Measure(0, 2, Duration.ofSeconds(5),
                Duration.ZERO));
        assertThat(campaign.steps().get(0).spec()).isEqualTo(new StepSpec.Import(new Size("5k", 5000), 500));
        assertThat(campaign.steps().get(1).spec()).isEqualTo(new StepSpec.Fault("flink-taskmanager", null));
        assertThat(campaign.steps().get(3).spec()).isEqualTo(new StepSpec.Fault("mongodb", Duration.ofSeconds(30)));
        assertThat(campaign.repository()).isEqualTo("faulty");
    }

    @Test
    void theCommittedCampaignsAreValid() {
        assertThat(CampaignFile.load(Path.of("growth.yaml")).steps()).hasSize(15);
        assertThat(CampaignFile.load(Path.of("smoke.yaml")).steps()).hasSize(6);
    }

    @Test
    void errorsNameTheirLineAndField() {
        CampaignException unknown = refused("""
                name: x
                sizes: [1M]
                each:
                  - import: {to: size}
                  - measure: {navigation: 10, seconds: 5, users: 3}
                """);
        assertThat(unknown.line()).isEqualTo(5);
        assertThat(unknown.field()).isEqualTo("each[1].measure.users");
        assertThat(unknown.getMessage()).startsWith("c.yaml:5: each[1].measure.users: unknown key");
    }

    @Test
    void bulkAndAclStepsAreTheCommandsAUserAsksFor() {
        Campaign campaign = parse("""
                name: commands
                steps:
                  - import: {to: 5k}
                  - bulk: {set: {reviewed: yes, by: audit}, type: Statement, state: tx}
                  - bulk: {set: {batch: "1"}, all: true}
                  - acl: {folder: st-TX, grant: compliance}
                  - acl: {folder: st-CA, grant: branch-TX, permission: WRITE}
                """);
        assertThat(campaign.steps()).extracting(CampaignStep::id).containsExactly("import-5k", "bulk-5k", "bulk-5k",
                "acl-5k", "acl-5k");
        assertThat(campaign.steps().get(1).spec()).isEqualTo(new StepSpec.Bulk(Map.of("reviewed", "yes", "by", "audit"),
                Map.of("type", "Statement", "state", "tx"), false));
        assertThat(campaign.steps().get(2).spec()).isEqualTo(new StepSpec.Bulk(Map.of("batch", "1"), Map.of(), true));
        assertThat(campaign.steps().get(3).spec()).isEqualTo(new StepSpec.Acl("st-TX", "compliance", Permission.READ));
        assertThat(campaign.steps().get(4).spec()).isEqualTo(new StepSpec.Acl("st-CA", "branch-TX", Permission.WRITE));
    }

    @Test
    void bulkAndAclStepsAreCheckedAsTheirCommandsAre() {
        String head = "name: x\nsteps:\n  - import: {to: 1k}\n";
        CampaignException noSelection = refused(head + "  - bulk: {set: {reviewed: yes}}\n");
        assertThat(noSelection.line()).isEqualTo(4);
        assertThat(noSelection.getMessage()).contains("steps[1].bulk.all: no selection");
        assertThat(refused(head + "  - bulk: {set: {reviewed: yes}, all: true, type: Statement}\n").getMessage())
                .contains("steps[1].bulk.all: all takes every document");
        assertThat(refused(head + "  - bulk: {set: {reviewed: yes}, all: maybe}\n").getMessage())
                .contains("steps[1].bulk.all: expected true or false");
        assertThat(refused(head + "  - bulk: {set: {reviewed: yes}, state: Texas}\n").getMessage())
                .contains("steps[1].bulk.state:");
        assertThat(refused(head + "  - bulk: {set: {reviewed: yes}, from: yesterday}\n").getMessage())
                .contains("steps[1].bulk.from:");
        assertThat(refused(head + "  - bulk: {set: {a.b: yes}, type: Statement}\n").getMessage())
                .contains("steps[1].bulk.set:");
        assertThat(refused(head + "  - bulk: {type: Statement}\n").getMessage()).contains("steps[1].bulk.set: missing");
        assertThat(refused(head + "  - bulk: {set: {a: 1}, colour: red}\n").getMessage())
                .contains("steps[1].bulk.colour: unknown key");
        CampaignException permission = refused(head + "  - acl: {folder: st-TX, grant: compliance, permission: OWN}\n");
        assertThat(permission.line()).isEqualTo(4);
        assertThat(permission.getMessage()).contains("steps[1].acl.permission: expected one of [READ, WRITE, MANAGE]");
        assertThat(refused(head + "  - acl: {grant: compliance}\n").getMessage()).contains("steps[1].acl.folder: missing");
        assertThat(refused(head + "  - acl: {folder: st-TX}\n").getMessage()).contains("steps[1].acl.grant: missing");
    }

    @Test
    void kindsTheRunnerCannotRunAreRefusedNotSkipped() {
        CampaignException error = refused("name: x\nsteps:\n  - import: {to: 1k}\n  - throttle: {}\n");
        assertThat(error.line()).isEqualTo(4);
        assertThat(error.getMessage()).contains("does not run 'throttle' steps yet");
        assertThat(refused("name: x\nsteps:\n  - import: {to: 1k}\n  - dance: {}\n").getMessage())
                .contains("steps[1].dance: unknown step");
    }

    @Test
    void eachKindsFieldsAreChecked() {
        String head = "name: x\nsizes: [1k]\neach:\n";
        assertThat(refused(head + "  - import: {to: 5k}\n").getMessage()).contains("each[0].import.to: in `each`");
        assertThat(refused(head + "  - import: {rate: fast}\n").getMessage())
                .contains("each[0].import.rate: expected a whole number");
        assertThat(refused(head + "  - import: {}\n  - measure: {seconds: 5}\n").getMessage())
                .contains("each[1].measure: no requests");
        assertThat(refused(head + "  - import: {}\n  - measure: {search: 5}\n").getMessage())
                .contains("each[1].measure.seconds: missing");
        assertThat(refused(head + "  - import: {}\n  - measure: {search: 5, seconds: 0}\n").getMessage())
                .contains("each[1].measure.seconds: expected a whole number within 1..3600");
        assertThat(refused(head + "  - import: {}\n  - measure: {search: 5, seconds: 5, warmUp: -1}\n").getMessage())
                .contains("each[1].measure.warmUp: expected a whole number within 0..3600");
        assertThat(refused(head + "  - import: {}\n  - reindex: {rangeSize: -1}\n").getMessage())
                .contains("each[1].reindex.rangeSize");
        assertThat(refused(head + "  - import: {}\n  - fault: {kill: mongodb, down: kafka}\n").getMessage())
                .contains("each[1].fault: expected `kill");
        assertThat(refused(head + "  - import: {}\n  - fault: {kill: mongodb, for: 3s}\n").getMessage())
                .contains("each[1].fault.for: a killed service");
        assertThat(refused(head + "  - import: {}\n  - fault: {down: mongodb, for: soon}\n").getMessage())
                .contains("each[1].fault.for: expected a positive time");
        assertThat(refused(head + "  - import: {}\n  - {import: {}, reindex: {}}\n").getMessage())
                .contains("each[1]: a step is one of");
    }

    @Test
    void theWholeFileIsChecked() {
        assertThat(refused("").line()).isZero();
        assertThat(refused("name: [x\n").getMessage()).contains("not valid YAML");
        assertThat(refused("name: Big Name\nsteps: [{import: {to: 1k}}]\n").getMessage())
                .contains("c.yaml:1: name: it names a repository");
        assertThat(refused("name: x\nsizes: [2M, 1M]\neach: [{import: {}}]\n").getMessage())
                .contains("c.yaml:2: sizes[1]: sizes grow");
        assertThat(refused("name: x\nsizes: [1 million]\neach: [{import: {}}]\n").getMessage())
                .contains("sizes[0]: expected a number of documents");
        assertThat(refused("name: x\nsizes: [1M]\neach: [{reindex: {}}]\n").getMessage()).contains("no import");
        assertThat(refused("name: x\nsizes: [1M]\neach: [{import: {}}]\nsteps: [{import: {to: 1M}}]\n").getMessage())
                .contains("sizes: give either sizes and each, or steps");
        assertThat(refused("name: x\nstop: {diskFreeBelow: 10GB}\nsizes: [1M]\neach: [{import: {}}]\n").getMessage())
                .contains("c.yaml:2: stop.diskFreeBelow: expected a size like 10GiB");
        CampaignException shrinking = refused("name: x\nsteps:\n  - import: {to: 2k}\n  - import: {to: 1k}\n");
        assertThat(shrinking.line()).isEqualTo(4);
        assertThatThrownBy(() -> CampaignFile.load(Path.of("no-such.yaml"))).hasMessageContaining("cannot read");
    }
}
