package io.volumizer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

class TimedExtractionTest {

    /** What each crafted file does to its parser, by its first byte. */
    private static String parse(byte[] bytes, String mimeType) {
        switch (bytes[0]) {
            case 'L' -> {
                // A parser in a loop that ignores interrupts: it ends on its own, long after its budget.
                long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                return "late";
            }
            case 'S' -> {
                return recurse(0);
            }
            case 'B' -> throw new IllegalArgumentException("cannot read the text of a " + mimeType + " file: garbage");
            default -> {
                return "text";
            }
        }
    }

    private static String recurse(int depth) {
        return recurse(depth + 1) + depth;
    }

    @Test
    void aFileThatLoopsIsGivenUpWithinItsBudgetAndTheNextIsReadOnAFreshWorker() throws Exception {
        try (TimedExtraction extraction = new TimedExtraction(TimedExtractionTest::parse, Duration.ofMillis(200))) {
            assertThatThrownBy(() -> extraction.extract(new byte[] {'L'}, "application/pdf"))
                    .isInstanceOf(TimeoutException.class);

            // The looping parser still holds its old worker: queued behind it, this file would time out too.
            assertThat(extraction.extract(new byte[] {'T'}, "application/pdf")).isEqualTo("text");
        }
    }

    @Test
    void aFileThatOverflowsTheStackOrCannotBeReadFailsThatFileOnly() throws Exception {
        try (TimedExtraction extraction = new TimedExtraction(TimedExtractionTest::parse, Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> extraction.extract(new byte[] {'S'}, "application/pdf"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("StackOverflowError");
            assertThatThrownBy(() -> extraction.extract(new byte[] {'B'}, "application/pdf"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("garbage");

            assertThat(extraction.extract(new byte[] {'T'}, "application/pdf")).isEqualTo("text");
        }
    }
}
