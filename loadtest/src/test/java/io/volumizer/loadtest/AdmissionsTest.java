package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class AdmissionsTest {

    @Test
    void admittedAndRefusedAnswersAreCountedAndRankedApart() {
        for (long millis = 1; millis <= 100; millis++) {
            Admissions.record("admissions-test", 200, millis);
        }
        Admissions.record("admissions-test", Admissions.REFUSED, 3);
        Admissions.record("admissions-test", Admissions.REFUSED, 7);

        Admissions.Split split = Admissions.splits().get("admissions-test");

        assertThat(split.admitted()).isEqualTo(100);
        assertThat(split.admittedP50()).isEqualTo(50);
        assertThat(split.admittedP95()).isEqualTo(95);
        assertThat(split.refused()).isEqualTo(2);
        assertThat(split.refusedP95()).isEqualTo(7);
        assertThat(Admissions.splits().get(Report.ALL).admitted()).isGreaterThanOrEqualTo(100);
    }

    @Test
    void aPercentileIsTheNearestRank() {
        assertThat(Admissions.percentile(List.of(10L, 20L, 30L, 40L), 50)).isEqualTo(20);
        assertThat(Admissions.percentile(List.of(10L, 20L, 30L, 40L), 95)).isEqualTo(40);
        assertThat(Admissions.percentile(List.of(), 95)).isZero();
    }
}
