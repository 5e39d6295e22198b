package io.volumizer.campaigns.run;

import java.io.PrintStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.RunProgress;
import io.volumizer.ops.campaign.StepResult;

/**
 * Runs a campaign step by step into its results folder ({@link RunFolder}), resuming the campaign's unfinished run
 * unless told to begin a new one. Before every step it checks the campaign's stop conditions (the disk's free
 * space, the time its steps have taken) and the caller's {@code stopAfter}; a run that stops there says why in
 * run.json and resumes later from the same step. A step interrupted (the command's Ctrl-C or SIGTERM, through
 * {@link InterruptOnShutdown}) stops the run the same way, the step to run again.
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
    public Optional<RunFolder> unfinished() {
        return RunFolder.latest(resultsRoot, campaign.name())
                .filter(run -> !CampaignRun.COMPLETED.equals(run.run().status()));
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
        RunFolderWriter folder;
        CampaignRun run;
        RunProgress progress;
        if (resumed.isPresent()) {
            folder = new RunFolderWriter(resumed.get().path());
            folder.checkUnchanged(file);
            run = resumed.get().run().resumedAt(Instant.now());
            progress = resumed.get().progress();
            out.println("resuming " + folder.path() + " (" + progress.completed().size() + " of "
                    + campaign.steps().size() + " steps done)");
        } else {
            Instant started = Instant.now();
            folder = RunFolderWriter.create(resultsRoot, campaign.name(), file, started);
            run = CampaignRun.starting(campaign.name(), file.toString(), started,
                    RunFolderWriter.strictly(describeRun.get(), CampaignRun.class));
            progress = RunProgress.NONE;
            out.println("new run " + folder.path());
        }
        folder.writeRun(run);
        int ran = 0;
        for (CampaignStep step : campaign.steps()) {
            if (progress.finished(step.key())) {
                continue;
            }
            String stop = stopBefore(folder, step);
            if (stop == null && stopAfter > 0 && ran == stopAfter) {
                stop = "--stop-after " + stopAfter + ": " + ran + " steps run, resume with the same command";
            }
            if (stop != null) {
                return end(folder, run, CampaignRun.STOPPED, stop);
            }
            progress = progress.starting(step.key());
            folder.writeProgress(progress);
            out.printf(Locale.ROOT, "step %d/%d %s ...%n", step.position(), campaign.steps().size(), step.id());
            StepResult result;
            try {
                result = folder.writeStep(step.key(), steps.run(step));
            } catch (Exception e) {
                // Cleared before the run's files are written: an interrupted thread cannot write to a channel.
                if (Thread.interrupted() || causedByInterrupt(e)) {
                    return end(folder, run, CampaignRun.STOPPED, "interrupted during " + step.key()
                            + ": its jobs were stopped; resume with the same command, which runs the step again");
                }
                end(folder, run, CampaignRun.FAILED, step.key() + ": " + e.getMessage());
                throw e;
            }
            progress = progress.done(step.key());
            folder.writeProgress(progress);
            ran++;
            out.printf(Locale.ROOT, "step %d/%d %s done in %.1f s%s%n", step.position(), campaign.steps().size(),
                    step.id(), Objects.requireNonNullElse(result.seconds(), 0.0), StepSummary.of(result));
        }
        return end(folder, run, CampaignRun.COMPLETED, null);
    }

    private static boolean causedByInterrupt(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause instanceof ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    /** Why the campaign stops before {@code step}, or null. */
    private String stopBefore(RunFolderWriter folder, CampaignStep step) {
        Campaign.Stop stop = campaign.stop();
        // Read once: both conditions measure what the run's finished steps recorded.
        RunFolder run = RunFolder.read(folder.path());
        if (stop.diskFreeBelowBytes() != null) {
            long free = diskFreeBytes.getAsLong();
            if (free < stop.diskFreeBelowBytes()) {
                return String.format(Locale.ROOT, "disk: %.1f GiB free, below the campaign's floor of %.1f GiB, "
                        + "before %s", free / GIB, stop.diskFreeBelowBytes() / GIB, step.key());
            }
            if (step.spec() instanceof StepSpec.Import imported) {
                String projected = projectedBelowFloor(run.steps(), step.key(), imported.to().documents(), free,
                        stop.diskFreeBelowBytes());
                if (projected != null) {
                    return projected;
                }
            }
        }
        if (stop.after() != null) {
            double spent = run.stepSeconds();
            if (spent >= stop.after().toSeconds()) {
                return String.format(Locale.ROOT, "time: its steps took %s, the campaign's budget is %s, before %s",
                        Duration.ofSeconds((long) spent), stop.after(), step.key());
            }
        }
        return null;
    }

    /**
     * Why an import to {@code target} documents would take the disk below the floor, or null: the documents it adds
     * times the disk a document this run's steps took so far (from its first recorded step to its latest), so that
     * the campaign stops before an import fills the disk rather than during it. Unknown before two steps of
     * different sizes: no projection.
     */
    private static String projectedBelowFloor(List<StepResult> done, String stepKey, long target, long free, long floor) {
        List<StepResult> measured = done.stream()
                .filter(result -> result.repositoryDocuments() != null && result.stores() != null
                        && result.stores().diskFreeBytes() != null)
                .toList();
        if (measured.size() < 2) {
            return null;
        }
        StepResult first = measured.get(0);
        StepResult last = measured.get(measured.size() - 1);
        long grown = last.repositoryDocuments() - first.repositoryDocuments();
        long taken = first.stores().diskFreeBytes() - last.stores().diskFreeBytes();
        long added = target - last.repositoryDocuments();
        if (grown <= 0 || taken <= 0 || added <= 0) {
            return null;
        }
        double perDocument = (double) taken / grown;
        double after = free - added * perDocument;
        if (after >= floor) {
            return null;
        }
        return String.format(Locale.ROOT, "disk: %.1f GiB free would be %.1f GiB after %s (%,.0f bytes a document, "
                + "what this run's steps took from %,d to %,d documents), below the campaign's floor of %.1f GiB",
                free / GIB, after / GIB, stepKey, perDocument, first.repositoryDocuments(),
                last.repositoryDocuments(), floor / GIB);
    }

    private RunFolder end(RunFolderWriter folder, CampaignRun run, String status, String because) {
        folder.writeRun(run.endedAt(Instant.now(), status, because));
        out.println(status + (because == null ? "" : ": " + because) + " (results in " + folder.path() + ")");
        return RunFolder.read(folder.path());
    }
}
