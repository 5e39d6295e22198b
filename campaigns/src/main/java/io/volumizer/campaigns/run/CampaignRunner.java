package io.volumizer.campaigns.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignStep;

/**
 * Runs a campaign step by step into its results folder ({@link RunFolder}), resuming the campaign's unfinished run
 * unless told to begin a new one. Before every step it checks the campaign's stop conditions (the disk's free
 * space, the time its steps have taken) and the caller's {@code stopAfter}; a run that stops there says why in
 * run.json and resumes later from the same step.
 */
public final class CampaignRunner {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final Campaign campaign;
    private final Path file;
    private final Path resultsRoot;
    private final LongSupplier diskFreeBytes;
    private final Supplier<ObjectNode> describeRun;
    private final PrintStream out;

    /**
     * @param diskFreeBytes the free space of the disk the services write to
     * @param describeRun   run.json's machine and versions, read when a run begins
     */
    public CampaignRunner(Campaign campaign, Path file, Path resultsRoot, LongSupplier diskFreeBytes,
            Supplier<ObjectNode> describeRun, PrintStream out) {
        this.campaign = campaign;
        this.file = file;
        this.resultsRoot = resultsRoot;
        this.diskFreeBytes = diskFreeBytes;
        this.describeRun = describeRun;
        this.out = out;
    }

    /** The run a {@link #run} would continue, if any: the campaign's latest that did not complete. */
    public Optional<RunFolder> unfinished() throws IOException {
        return RunFolder.unfinished(resultsRoot, campaign.name());
    }

    /**
     * Runs the campaign's steps that its run has not finished, in a new run when {@code fresh} or when none is
     * unfinished.
     *
     * @param steps     runs a step on the target
     * @param stopAfter steps to run before stopping (the run stays resumable); 0 for all
     * @return the run's folder, its run.json saying how it ended
     */
    public RunFolder run(StepExecutor steps, boolean fresh, int stopAfter)
            throws Exception {
        Optional<RunFolder> resumed = fresh ? Optional.empty() : unfinished();
        RunFolder folder;
        ObjectNode run;
        if (resumed.isPresent()) {
            folder = resumed.get();
            folder.checkUnchanged(file);
            run = folder.run();
            run.put("status", RunFolder.RUNNING);
            run.remove(List.of("ended", "stoppedBecause"));
            run.withArray("resumed").add(Instant.now().toString());
            out.println("resuming " + folder.path() + " (" + folder.progress().completed().size() + " of "
                    + campaign.steps().size() + " steps done)");
        } else {
            Instant started = Instant.now();
            folder = RunFolder.create(resultsRoot, campaign.name(), file, started);
            run = RunFolder.JSON.createObjectNode();
            run.put("campaign", campaign.name());
            run.put("runId", RunFolder.runId(started));
            run.put("file", file.toString());
            run.put("started", started.toString());
            run.put("status", RunFolder.RUNNING);
            run.setAll(describeRun.get());
            out.println("new run " + folder.path());
        }
        folder.writeRun(run);
        RunProgress progress = folder.progress();
        int ran = 0;
        for (CampaignStep step : progress.remaining(campaign.steps())) {
            String stop = stopBefore(folder, step);
            if (stop == null && stopAfter > 0 && ran == stopAfter) {
                stop = "--stop-after " + stopAfter + ": " + ran + " steps run, resume with the same command";
            }
            if (stop != null) {
                return end(folder, run, RunFolder.STOPPED, stop);
            }
            progress = progress.starting(step);
            folder.writeProgress(progress);
            out.printf(Locale.ROOT, "step %d/%d %s ...%n", step.position(), campaign.steps().size(), step.id());
            ObjectNode result;
            try {
                result = steps.run(step);
            } catch (Exception e) {
                end(folder, run, RunFolder.FAILED, step.key() + ": " + e.getMessage());
                throw e;
            }
            folder.writeStep(step, result);
            progress = progress.done(step);
            folder.writeProgress(progress);
            ran++;
            out.printf(Locale.ROOT, "step %d/%d %s done in %.1f s%s%n", step.position(), campaign.steps().size(),
                    step.id(), result.path("seconds").asDouble(), StepSummary.of(result));
        }
        return end(folder, run, RunFolder.COMPLETED, null);
    }

    /** Why the campaign stops before {@code step}, or null. */
    private String stopBefore(RunFolder folder, CampaignStep step) throws IOException {
        Campaign.Stop stop = campaign.stop();
        if (stop.diskFreeBelowBytes() != null) {
            long free = diskFreeBytes.getAsLong();
            if (free < stop.diskFreeBelowBytes()) {
                return String.format(Locale.ROOT, "disk: %.1f GiB free, below the campaign's floor of %.1f GiB, "
                        + "before %s", free / GIB, stop.diskFreeBelowBytes() / GIB, step.key());
            }
        }
        if (stop.after() != null) {
            double spent = folder.stepSeconds();
            if (spent >= stop.after().toSeconds()) {
                return String.format(Locale.ROOT, "time: its steps took %s, the campaign's budget is %s, before %s",
                        Duration.ofSeconds((long) spent), stop.after(), step.key());
            }
        }
        return null;
    }

    private RunFolder end(RunFolder folder, ObjectNode run, String status, String because) throws IOException {
        run.put("ended", Instant.now().toString());
        run.put("status", status);
        if (because != null) {
            run.put("stoppedBecause", because);
        }
        folder.writeRun(run);
        out.println(status + (because == null ? "" : ": " + because) + " (results in " + folder.path() + ")");
        return folder;
    }
}
