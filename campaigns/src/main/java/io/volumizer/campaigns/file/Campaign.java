package io.volumizer.campaigns.file;

import java.time.Duration;
import java.util.List;

/**
 * A campaign as its file describes it ({@link CampaignFile}), its steps in the order they run.
 *
 * @param repository the repository (and topics) it builds, named after the campaign unless the file says
 */
public record Campaign(String source, String name, String description, String repository, Stop stop,
        List<CampaignStep> steps) {

    /**
     * When the campaign stops before a step: either holds.
     *
     * @param diskFreeBelowBytes null for no floor
     * @param after              null for no time budget
     */
    public record Stop(Long diskFreeBelowBytes, Duration after) {
        static final Stop NONE = new Stop(null, null);
    }

    /** The most documents any import asks for: the generator's customer range is sized for it. */
    public long largestSize() {
        return steps.stream().map(CampaignStep::spec).filter(StepSpec.Import.class::isInstance)
                .mapToLong(step -> ((StepSpec.Import) step).to().documents()).max().orElse(0);
    }
}
