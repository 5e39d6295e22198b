package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class AwaitTest {

    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);

    /** The clock moves only when the polling sleeps. */
    private final AtomicLong nanos = new AtomicLong();
    private final Await polling = new Await(Await.INTERVAL, STALLED_AFTER, nanos::get, duration -> nanos.addAndGet(duration.toNanos()));

    @Test
    void aRunEndsWhenItsStoredAndDeadLetteredDocumentsMakeUpTheExpectedOnes() throws Exception {
        AtomicLong readings = new AtomicLong();
        Through run = new Through("import", new Progress(100), () -> Math.min(60, readings.incrementAndGet() * 10),
                () -> Math.min(40, readings.get() * 5));

        polling.untilThrough(List.of(run), () -> { });

        assertThat(run.complete()).isTrue();
        assertThat(run.deadLettered()).isEqualTo(40);
        assertThat(run.describe()).isEqualTo("import: 60 stored + 40 dead-lettered of 100 documents");
    }

    @Test
    void aSlowRunMayTakeLongerThanTheStretchAsLongAsItMoves() throws Exception {
        // One document a minute: twenty minutes in all, never five without a change.
        Through run = Through.stored("slow loop", new Progress(20), () -> nanos.get() / Duration.ofMinutes(1).toNanos());

        polling.untilThrough(List.of(run), () -> { });

        assertThat(run.complete()).isTrue();
        assertThat(Duration.ofNanos(nanos.get())).isGreaterThanOrEqualTo(Duration.ofMinutes(20));
    }

    @Test
    void aRunThatStopsMovingFailsWithWhatWasSeenInsteadOfWaitingForever() {
        Through stuck = new Through("import job, spread by document", new Progress(1000), () -> 300, () -> 600);
        Through done = Through.stored("raw loop", new Progress(10), () -> 10);

        assertThatThrownBy(() -> polling.untilThrough(List.of(done, stuck), () -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no progress for 300 s: raw loop: 10 stored + 0 dead-lettered of 10 documents; "
                        + "import job, spread by document: 300 stored + 600 dead-lettered of 1,000 documents");
        assertThat(Duration.ofNanos(nanos.get())).isEqualTo(STALLED_AFTER);
    }

    @Test
    void aWriterFailureEndsThePollingAtOnce() {
        Through run = Through.stored("raw loop", new Progress(10), () -> 0);

        assertThatThrownBy(() -> polling.untilThrough(List.of(run), () -> {
            throw new IllegalStateException("bulk write refused");
        })).hasMessage("bulk write refused");
    }

    @Test
    void aCountThatKeepsMovingIsAwaitedPastTheStalledStretch() throws Exception {
        AtomicLong reads = new AtomicLong();

        long reached = polling.every(Duration.ofMinutes(1)).until("imported", () -> Math.min(reads.incrementAndGet(), 20L), 20);

        assertThat(reached).isEqualTo(20);
        assertThat(Duration.ofNanos(nanos.get())).isGreaterThan(STALLED_AFTER);
    }

    @Test
    void aCountThatStandsStillShortOfItsTargetFailsNamingIt() {
        assertThatThrownBy(() -> polling.until("indexed", () -> 7L, 10))
                .isInstanceOf(IllegalStateException.class).hasMessage("no progress for 300 s: indexed: 7");
    }
}
