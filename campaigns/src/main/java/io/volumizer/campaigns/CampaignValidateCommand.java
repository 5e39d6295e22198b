package io.volumizer.campaigns;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignException;
import io.volumizer.campaigns.file.CampaignStep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code volumizer campaign validate FILE}: checks a campaign file whole and lists its steps; runs nothing. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Checks a campaign file (every error with its line) and lists the steps it would run.")
final class CampaignValidateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The campaign file.")
    Path file;

    @Override
    public Integer call() {
        Campaign campaign;
        try {
            campaign = io.volumizer.campaigns.file.CampaignFile.load(file);
        } catch (CampaignException e) {
            System.err.println(e.getMessage());
            return 1;
        }
        System.out.println(campaign.name() + ": " + campaign.steps().size() + " steps on repository "
                + campaign.repository());
        for (CampaignStep step : campaign.steps()) {
            System.out.println("  " + step.key() + "  (line " + step.line() + ")");
        }
        return 0;
    }
}
