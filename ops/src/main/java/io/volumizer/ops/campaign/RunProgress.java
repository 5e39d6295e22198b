package io.volumizer.ops.campaign;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a run is ({@code progress.json}): the steps finished, by key ({@code 001-import-1M}), and the one under
 * way, if any. A resume runs what is not finished, in order; the step under way when the run was interrupted runs
 * again from its start (an import continues to its size: its writes are idempotent by id).
 *
 * @param current null between steps
 */
public record RunProgress(List<String> completed, String current) {

    public static final RunProgress NONE = new RunProgress(List.of(), null);

    public RunProgress {
        completed = completed == null ? List.of() : List.copyOf(completed);
    }

    public boolean finished(String step) {
        return completed.contains(step);
    }

    public RunProgress starting(String step) {
        return new RunProgress(completed, step);
    }

    public RunProgress done(String step) {
        List<String> now = new ArrayList<>(completed);
        now.add(step);
        return new RunProgress(now, null);
    }
}
