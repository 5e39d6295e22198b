package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class BacklogTest {

    private final Backlog backlog = new Backlog(4_000, Duration.ofSeconds(70), Duration.ofSeconds(310));

    @Test
    void holdsWhatEveryPassMayReadWithAMargin() {
        // Each pass 45 s longer than its users: 0 + 100×115 + 1000×115 at their limits, max 4000×115 and hold
        // 4000×355 at the ceiling: 2,006,500 documents.
        assertThat(backlog.documents(ImportRate.parse("0,100,1000,max,hold"))).isEqualTo(2_508_125);
        assertThat(backlog.documents(ImportRate.parse("0"))).isZero();
    }

    @Test
    void countsCustomersUntilTheirDocumentsAreEnough() {
        // customers from 10 on have 10 + their number of documents: 20 + 21 + 22 >= 60, 20 + 21 < 60
        assertThat(Backlog.customers(10, 60, customer -> customer + 10)).isEqualTo(3);
        assertThat(Backlog.customers(10, 61, customer -> customer + 10)).isEqualTo(3);
        assertThat(Backlog.customers(10, 64, customer -> customer + 10)).isEqualTo(4);
        assertThat(Backlog.customers(10, 0, customer -> customer + 10)).as("one customer at least").isEqualTo(1);
    }

    @Test
    void refusesACeilingThatSizesNothing() {
        assertThatThrownBy(() -> new Backlog(0, Duration.ofSeconds(70), Duration.ofSeconds(70)))
                .hasMessageContaining("positive");
    }
}
