package io.volumizer.options.steps;

import io.volumizer.options.conventions.ConsumerGroups;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the index job: it reads the imported topic in a consumer group of its own. */
@Command(name = "index", description =
        "Indexes imported documents into the search engine (Elasticsearch or OpenSearch).",
        footer = {"%nExample:", "  bin/volumizer job submit index --topics-of bank"})
public final class IndexOptions extends ConsumerStepOptions {

    @Mixin public IndexSettings settings = new IndexSettings();

    @Option(names = "--index-group-id",
            description = "Kafka consumer group reading the imported topic (default: --topics-of's, volumizer-<repository>-index, "
                    + "or -file-text with --file-text only).")
    private String groupId;

    public IndexOptions() {
        super(Step.INDEX);
    }

    @Override
    protected void validateStep() {
        settings.validate();
    }

    /** A job of the files' text alone obeys the text's throttle too: it can be held back apart from the metadata's. */
    @Override
    public String ownThrottleTarget() {
        return settings.fileText == IndexSettings.FileText.only ? IndexSettings.FileText.THROTTLE_TARGET : null;
    }

    /** A job of the files' text alone reads in a group of its own: it must see every record an index job sees. */
    @Override
    protected String groupIdOption() {
        return groupId == null && settings.fileText == IndexSettings.FileText.only
                ? ConsumerGroups.of(pipeline.documents.repository(), ConsumerGroups.FILE_TEXT) : groupId;
    }
}
