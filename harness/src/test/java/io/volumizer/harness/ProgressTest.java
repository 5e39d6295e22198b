package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class ProgressTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void wholeRateCountsTheWarmUpAndTheTailSustainedRateDoesNot() {
        Progress progress = new Progress(1000);
        progress.reached(0, 0);
        progress.reached(4 * SECOND, 100);   // slow start: 25 docs/s
        progress.reached(8 * SECOND, 500);   // warming up: 100 docs/s
        progress.reached(10 * SECOND, 900);  // warm: 200 docs/s from 50% to 90%
        progress.reached(20 * SECOND, 1000); // a tail of 10 s for the last 100

        assertThat(progress.rate()).isCloseTo(1000 / 20.0, within(1e-9));
        assertThat(progress.sustainedRate()).isCloseTo(200.0, within(1e-9));
        assertThat(progress.describe()).isEqualTo("10% at 4.0 s, 50% at 8.0 s, 90% at 10.0 s, 99% at 20.0 s, 100% at 20.0 s");
    }

    @Test
    void documentsThatAllArriveBetweenTwoReadingsAreTimedFromTheLastIdleReading() {
        Progress progress = new Progress(3000);
        progress.idle(0);
        progress.idle(5 * SECOND);
        progress.reached(10 * SECOND, 3000);
        progress.idle(15 * SECOND); // once something moved, an idle reading is no start

        assertThat(progress.rate()).isCloseTo(3000 / 5.0, within(1e-9));
        assertThat(progress.elapsedNanos()).isEqualTo(5 * SECOND);
    }

    @Test
    void aRunWithAStartSampleKeepsItsStartWhateverIdleReadingsFollow() {
        Progress progress = new Progress(100);
        progress.reached(0, 0);
        progress.idle(5 * SECOND);
        progress.reached(10 * SECOND, 100);

        assertThat(progress.rate()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void aStagesDelayIsTheTimeBetweenTheCurvesAtEachShareOfTheirOwnDocuments() {
        Progress imported = new Progress(1000);
        imported.reached(0, 0);
        imported.reached(10 * SECOND, 1000); // all of them by 10 s
        Progress withText = new Progress(100);  // one in ten has a file
        withText.reached(0, 0);
        withText.reached(12 * SECOND, 50);
        withText.reached(30 * SECOND, 100);

        List<Double> delays = Progress.delaysSeconds(imported, withText);

        assertThat(delays).hasSize(100);
        assertThat(delays.get(0)).as("1%: 12 s, after the import reached it at 10 s").isCloseTo(2.0, within(1e-9));
        assertThat(delays.get(99)).isCloseTo(20.0, within(1e-9));
    }

    @Test
    void sustainedRateUsesTheCountsActuallySampledPastEachMark() {
        Progress progress = new Progress(1000);
        progress.reached(0, 550);
        progress.reached(2 * SECOND, 950);

        assertThat(progress.sustainedRate()).isCloseTo(200.0, within(1e-9));
    }

    @Test
    void aRunThatNeverGotThereHasNoRate() {
        Progress progress = new Progress(1000);
        progress.reached(0, 0);
        progress.reached(SECOND, 500);

        assertThatThrownBy(progress::sustainedRate).hasMessageContaining("never reached 90.0% of 1000");
    }

    @Test
    void oneSampleAcrossBothMarksIsTooFew() {
        Progress progress = new Progress(1000);
        progress.reached(0, 1000);

        assertThatThrownBy(progress::sustainedRate).hasMessageContaining("too few samples");
    }
}
