package io.volumizer.campaigns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignException;
import io.volumizer.campaigns.file.CampaignFile;
import io.volumizer.campaigns.kubernetes.KubernetesSteps;
import io.volumizer.campaigns.kubernetes.KubernetesSteps.KubernetesStep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code volumizer campaign render FILE --out DIR}: the campaign for the chart, a values file per step and a
 * README.md of the commands in order; touches no cluster.
 */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Writes a campaign for the chart (helm/volumizer): per step, in order, the values file a helm "
                + "upgrade applies (NNN-<step>.yaml) and, in README.md, the commands and manual steps; touches no "
                + "cluster. A fault of a service the chart does not deploy is refused.")
final class CampaignRenderCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The campaign file.")
    Path file;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The folder written (created if "
            + "missing; files of the same names replaced).")
    Path out;

    @Override
    public Integer call() throws IOException {
        Campaign campaign;
        List<KubernetesStep> steps;
        try {
            campaign = CampaignFile.load(file);
            steps = KubernetesSteps.of(campaign);
        } catch (CampaignException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Yaml yaml = new Yaml(options);
        Files.createDirectories(out);
        StringBuilder readme = new StringBuilder("# Campaign " + campaign.name() + " on Kubernetes\n\n");
        if (!campaign.description().isEmpty()) {
            readme.append(campaign.description()).append("\n\n");
        }
        readme.append("Rendered by `bin/volumizer campaign render ").append(file).append("`. Each step's values file is "
                + "applied over your own (services, images, sizes; a later `-f` wins), from the repository's root, "
                + "with:\n\n```bash\nRELEASE=volumizer NAMESPACE=volumizer SERVICES=my-services.yaml   # yours\n"
                + "API=https://volumizer.example.com TOKEN=...                       # the API's address, a bearer "
                + "token\n```\n\n");
        if (campaign.stop().diskFreeBelowBytes() != null || campaign.stop().after() != null) {
            readme.append("The campaign's `stop` conditions are the local runner's: watch your services' disks and the "
                    + "time yourself.\n\n");
        }
        for (KubernetesStep step : steps) {
            Files.writeString(out.resolve(step.valuesFile()), "# " + campaign.name() + ", step " + step.step().key()
                    + " (campaign file line " + step.step().line() + "): bin/volumizer campaign render\n"
                    + yaml.dump(step.values()));
            readme.append("## ").append(step.step().key()).append("\n\n");
            for (String action : step.actions()) {
                readme.append(action.startsWith("helm ") || action.startsWith("curl ") || action.startsWith("kubectl ")
                        ? "```bash\n" + action + "\n```\n\n" : action + "\n\n");
            }
        }
        Files.writeString(out.resolve("README.md"), readme.toString());
        System.out.println(campaign.name() + ": " + steps.size() + " steps for the chart in " + out
                + " (README.md: the commands in order)");
        return 0;
    }
}
