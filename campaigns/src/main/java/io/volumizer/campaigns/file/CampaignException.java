package io.volumizer.campaigns.file;

import io.volumizer.domain.yaml.YamlFileException;

/** What is wrong with a campaign file, with the line and the field it is at. */
public final class CampaignException extends YamlFileException {

    private static final long serialVersionUID = 1L;

    public CampaignException(String source, int line, String field, String problem) {
        super(source, line, field, problem);
    }
}
