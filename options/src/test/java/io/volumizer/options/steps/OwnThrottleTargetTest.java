package io.volumizer.options.steps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.volumizer.options.Options;

class OwnThrottleTargetTest {

    @Test
    void anIndexJobOfTheFilesTextAloneObeysTheTextsThrottleBesideItsSteps() {
        assertThat(Options.parse(new IndexOptions(), "--file-text", "only").ownThrottleTarget())
                .isEqualTo(IndexSettings.FileText.THROTTLE_TARGET);
        assertThat(Options.parse(new IndexOptions(), "--file-text", "none").ownThrottleTarget()).isNull();
        assertThat(Options.parse(new IndexOptions()).ownThrottleTarget()).as("the branch's").isNull();
    }

    @Test
    void aCommandsJobObeysItsCommandsThrottleAndAnImportOnlyItsSteps() {
        assertThat(Options.parse(new ReindexOptions(), "--repository", "bank", "--command-id", "reindex-bank-1")
                .ownThrottleTarget()).isEqualTo("reindex-bank-1");
        assertThat(Options.parse(new ImportOptions()).ownThrottleTarget()).isNull();
    }
}
