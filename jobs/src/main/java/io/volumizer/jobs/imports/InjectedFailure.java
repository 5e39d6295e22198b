package io.volumizer.jobs.imports;

import org.apache.flink.api.common.functions.RichMapFunction;

import io.volumizer.schemas.event.ImportedEvent;

/**
 * Chaos testing: throws once, on the job's first attempt, when a subtask reaches a given record, so that tests
 * (and users rehearsing an outage) can watch the job restart from its checkpoint without losing or duplicating.
 */
public final class InjectedFailure extends RichMapFunction<ImportedEvent, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    private final long failAt;
    private long seen;

    private InjectedFailure(long failAt) {
        this.failAt = failAt;
    }

    public static InjectedFailure at(long record) {
        return new InjectedFailure(record);
    }

    @Override
    public ImportedEvent map(ImportedEvent event) {
        if (++seen == failAt && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
            throw new IllegalStateException("injected failure at record " + failAt + " (--inject-failure-at)");
        }
        return event;
    }
}
