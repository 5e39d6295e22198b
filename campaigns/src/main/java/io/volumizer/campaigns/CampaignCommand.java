package io.volumizer.campaigns;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code volumizer campaign}: runs, checks and renders campaign files (docs/operations/campaigns.md). */
@Command(name = "campaign", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Runs a campaign file's steps on the local services into a results folder, checks the file, or "
                + "renders it for the chart (helm/volumizer).",
        subcommands = {CampaignRunCommand.class, CampaignValidateCommand.class, CampaignRenderCommand.class},
        footer = {"%nExamples:", "  bin/volumizer campaign validate campaigns/growth.yaml",
            "  bin/volumizer campaign run campaigns/smoke.yaml",
            "  bin/volumizer campaign render campaigns/growth.yaml --out /tmp/growth-on-kubernetes"})
public final class CampaignCommand {

    /** The command with its subcommands, for the command line's root. */
    public static CommandLine commandLine() {
        return new CommandLine(new CampaignCommand());
    }
}
