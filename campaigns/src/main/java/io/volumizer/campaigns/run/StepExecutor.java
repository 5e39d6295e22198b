package io.volumizer.campaigns.run;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.campaigns.file.CampaignStep;

/** Runs one step of a campaign on a target and returns what it measured, as its step file holds it. */
public interface StepExecutor {

    /** @throws Exception when the step could not do what it says: the run fails, and a resume runs it again */
    ObjectNode run(CampaignStep step) throws Exception;
}
