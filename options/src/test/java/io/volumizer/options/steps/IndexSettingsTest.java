package io.volumizer.options.steps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.volumizer.options.Options;

class IndexSettingsTest {

    @Test
    void onlyTheIndexJobOfTheFilesTextAloneObeysTheTextsThrottleBesideItsSteps() {
        assertThat(Options.parse(new IndexOptions(), "--file-text", "only").settings.throttleTarget())
                .isEqualTo(IndexSettings.FileText.THROTTLE_TARGET);
        assertThat(Options.parse(new IndexOptions(), "--file-text", "none").settings.throttleTarget()).isNull();
        assertThat(Options.parse(new IndexOptions()).settings.throttleTarget()).as("the branch's").isNull();
    }
}
