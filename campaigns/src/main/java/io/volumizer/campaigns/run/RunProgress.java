package io.volumizer.campaigns.run;

import java.util.ArrayList;
import java.util.List;

import io.volumizer.campaigns.file.CampaignStep;

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
        completed = List.copyOf(completed);
    }

    public boolean finished(CampaignStep step) {
        return completed.contains(step.key());
    }

    /** The campaign's steps not finished yet, in order. */
    public List<CampaignStep> remaining(List<CampaignStep> steps) {
        return steps.stream().filter(step -> !finished(step)).toList();
    }

    public RunProgress starting(CampaignStep step) {
        return new RunProgress(completed, step.key());
    }

    public RunProgress done(CampaignStep step) {
        List<String> now = new ArrayList<>(completed);
        now.add(step.key());
        return new RunProgress(now, null);
    }
}
