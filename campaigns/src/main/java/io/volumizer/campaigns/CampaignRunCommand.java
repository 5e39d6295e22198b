package io.volumizer.campaigns;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignException;
import io.volumizer.campaigns.file.CampaignFile;
import io.volumizer.campaigns.run.CampaignRunner;
import io.volumizer.campaigns.run.InterruptOnShutdown;
import io.volumizer.campaigns.run.LocalCampaign;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.flink.SessionOptions;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code volumizer campaign run FILE}: runs a campaign on the local services, resuming its unfinished run if there
 * is one; prints a line per step and where the results are. Ctrl-C (or SIGTERM) stops it within
 * {@link InterruptOnShutdown#GRACE}: the step under way is stopped, its jobs with it, and run again on resume.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a campaign's steps on the local services into <results>/<campaign>/<run id>/; resumes "
                + "the campaign's unfinished run there (its finished steps are not run again) unless --new.")
final class CampaignRunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The campaign file.")
    Path file;

    @Option(names = "--results", required = true, paramLabel = "DIR",
            description = "The results root; a run's folder is <DIR>/<campaign>/<run id> (default: ${DEFAULT-VALUE}).")
    Path results;

    @Option(names = "--new", description = "Begin a new run (from an empty repository) even if one is unfinished.")
    boolean fresh;

    @Option(names = "--stop-after", paramLabel = "STEPS", defaultValue = "0", description = "Stop after running this "
            + "many steps, resumable by the same command: a campaign a few steps at a time; 0 runs them all "
            + "(default: ${DEFAULT-VALUE}).")
    int stopAfter;

    @Mixin PipelineOptions pipeline = new PipelineOptions();
    @Mixin SessionOptions session = new SessionOptions();
    @Mixin CheckOptions check = new CheckOptions();

    @Override
    public Integer call() throws Exception {
        Campaign campaign;
        try {
            campaign = CampaignFile.load(file);
        } catch (CampaignException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        if (stopAfter < 0) {
            throw new ParameterException(spec.commandLine(), "--stop-after must be 0 or positive, was " + stopAfter);
        }
        pipeline.documents.topicsOf(campaign.repository());
        try {
            pipeline.validate();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (check.only) {
            return 0;
        }
        // Closed last: a Ctrl-C waits until the target has stopped its jobs and the runner has written run.json.
        try (InterruptOnShutdown stopping = new InterruptOnShutdown(Thread.currentThread());
                LocalCampaign target = new LocalCampaign(campaign, pipeline, session, LocalServices.ofThisCheckout())) {
            CampaignRunner runner = new CampaignRunner(campaign, file, results, target::diskFreeBytes,
                    target::describe, System.out);
            boolean fresh = this.fresh || runner.unfinished().isEmpty();
            if (fresh) {
                target.reset();
            }
            return CampaignRun.FAILED.equals(runner.run(target, fresh, stopAfter).run().status()) ? 1 : 0;
        }
    }
}
