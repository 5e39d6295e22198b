package io.volumizer.ops.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.options.steps.IndexSettings;
import io.volumizer.options.steps.Step;

class ThrottleTargetsTest {

    @Test
    void aThrottledStepTheTextsIndexJobsAndACommandOfAThrottledStepAreTargetsAndNothingElse() {
        assertThat(ThrottleSettings.isTarget("import")).isTrue();
        assertThat(ThrottleSettings.isTarget(IndexSettings.FileText.THROTTLE_TARGET)).isTrue();
        assertThat(ThrottleSettings.isTarget("reindex-bank-20261129-070502-62ff7367")).isTrue();
        assertThat(ThrottleSettings.isTarget("smoke")).as("a step no job of which is throttled").isFalse();
        assertThat(ThrottleSettings.isTarget("file-texts")).isFalse();
        assertThat(ThrottleSettings.isStep(IndexSettings.FileText.THROTTLE_TARGET)).isFalse();
        assertThat(ThrottleSettings.targets()).contains(IndexSettings.FileText.THROTTLE_TARGET);
    }

    @Test
    void aJobObeysItsOwnTargetFirstThenItsSteps() {
        assertThat(ThrottleSettings.targetsOf(Step.INDEX, List.of("--file-text", "only")))
                .containsExactly(IndexSettings.FileText.THROTTLE_TARGET, "index");
        assertThat(ThrottleSettings.targetsOf(Step.INDEX, List.of("--file-text", "none"))).containsExactly("index");
        assertThat(ThrottleSettings.targetsOf(Step.REINDEX, List.of("--repository", "bank", "--command-id", "reindex-bank-1")))
                .containsExactly("reindex-bank-1", "reindex");
    }
}
