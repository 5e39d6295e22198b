package io.volumizer.jobs.smoke;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/** Counts the elements of each key in keyed state and emits {@code key,element,count}. */
final class CountPerKey extends KeyedProcessFunction<Long, Long, String> {

    private static final long serialVersionUID = 1L;
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext openContext) {
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
    }

    @Override
    public void processElement(Long element, Context ctx, Collector<String> out) throws Exception {
        long next = (count.value() == null ? 0 : count.value()) + 1;
        count.update(next);
        out.collect(ctx.getCurrentKey() + "," + element + "," + next);
    }
}
