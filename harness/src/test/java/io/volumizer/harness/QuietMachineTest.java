package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuietMachineTest {

    @Test
    void busyIsTheShareOfTimeNeitherIdleNorWaitingForIo() {
        long[] before = QuietMachine.cpuTimes("cpu  100 0 50 1000 20 0 5 0 0 0");
        long[] after = QuietMachine.cpuTimes("cpu  160 0 70 1100 40 0 10 0 0 0");

        // 85 busy (60 user + 20 system + 5 softirq) of 205
        assertThat(QuietMachine.busy(before, after)).isCloseTo(85.0 / 205, within(1e-9));
        assertThat(QuietMachine.busy(after, after)).isZero();
    }

    @Test
    void onlyTheCpuLineIsRead() {
        assertThatThrownBy(() -> QuietMachine.cpuTimes("cpu0 1 2 3 4 5 6 7 8"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu0");
    }
}
