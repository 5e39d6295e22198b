package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class StoreIsolationTest {

    @Test
    void theStoreGetsTheFirstHalfOfTheCoresAndEveryoneElseTheRest() {
        assertThat(List.of(StoreIsolation.storeCores(2), StoreIsolation.otherCores(2))).containsExactly("0", "1");
        assertThat(List.of(StoreIsolation.storeCores(3), StoreIsolation.otherCores(3))).containsExactly("0", "1-2");
        assertThat(List.of(StoreIsolation.storeCores(8), StoreIsolation.otherCores(8))).containsExactly("0-3", "4-7");
    }

    @Test
    void pinsTheProcessesAndGivesThemTheirCoresBackOnClose() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        assumeTrue(cores >= 2, "needs 2 cores");
        Process store = new ProcessBuilder("sleep", "60").start();
        Process other = new ProcessBuilder("sleep", "60").start();
        String runner = allowedCores(ProcessHandle.current().pid());
        String storeBefore = allowedCores(store.pid());
        try {
            StoreIsolation.taskset(other.pid(), "0");
            try (StoreIsolation isolation = StoreIsolation.start(store.pid(), List.of(other.pid()), cores)) {
                assertThat(allowedCores(store.pid())).isEqualTo(StoreIsolation.storeCores(cores));
                assertThat(allowedCores(other.pid())).isEqualTo(StoreIsolation.otherCores(cores));
                assertThat(allowedCores(ProcessHandle.current().pid())).isEqualTo(StoreIsolation.otherCores(cores));
            }
            assertThat(allowedCores(store.pid())).isEqualTo(storeBefore);
            assertThat(allowedCores(other.pid())).isEqualTo("0");
            assertThat(allowedCores(ProcessHandle.current().pid())).isEqualTo(runner);
        } finally {
            store.destroy();
            other.destroy();
        }
    }

    @Test
    void aProcessThatIsNotThereIsAClearError() {
        assertThatThrownBy(() -> StoreIsolation.taskset(Integer.MAX_VALUE, "0"))
                .hasMessageContaining("could not pin process " + Integer.MAX_VALUE + " to cores 0: no such process");
        assertThatThrownBy(() -> StoreIsolation.start(Integer.MAX_VALUE, List.of(), 2))
                .hasMessageContaining("no process " + Integer.MAX_VALUE);
    }

    private static String allowedCores(long pid) throws Exception {
        return StoreIsolation.allowedCores(pid);
    }
}
