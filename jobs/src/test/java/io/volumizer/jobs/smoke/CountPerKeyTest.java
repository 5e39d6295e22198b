package io.volumizer.jobs.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class CountPerKeyTest {

    private static KeyedOneInputStreamOperatorTestHarness<Long, Long, String> harness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new CountPerKey()),
                element -> element % 2, Types.LONG);
    }

    @Test
    void countsEachKeySeparately() throws Exception {
        try (var harness = harness()) {
            harness.open();
            for (long element = 0; element < 5; element++) {
                harness.processElement(element, element);
            }
            assertThat(harness.extractOutputValues()).containsExactly("0,0,1", "1,1,1", "0,2,2", "1,3,2", "0,4,3");
        }
    }

    @Test
    void countsContinueFromASnapshot() throws Exception {
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(0L, 0);
            harness.processElement(2L, 0);
            snapshot = harness.snapshot(1, 1);
        }
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.processElement(4L, 0);
            assertThat(restored.extractOutputValues()).containsExactly("0,4,3");
        }
    }
}
