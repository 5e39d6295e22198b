package io.volumizer.options.steps;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Options of the import-and-index job: the import stage's and the index stage's. It has no {@code --index-group-id}:
 * its index stage reads no topic, it takes the import stage's output.
 */
@Command(name = "import-and-index", description =
        "Imports document events into MongoDB and indexes them in the search engine (Elasticsearch or OpenSearch) in "
        + "one job graph.",
        footer = {"%nExample:", "  bin/volumizer job submit import-and-index --topics-of bank"})
public final class ImportAndIndexOptions extends ConsumerStepOptions {

    @Mixin public ImportSettings importSettings = new ImportSettings();
    @Mixin public IndexSettings indexSettings = new IndexSettings();

    public ImportAndIndexOptions() {
        super(Step.IMPORT_AND_INDEX);
    }

    @Override
    protected void validateStep() {
        importSettings.validate();
        indexSettings.validate();
        indexSettings.requireFileTextHere(Step.IMPORT_AND_INDEX);
    }

    @Override
    protected String groupIdOption() {
        return importSettings.groupId;
    }
}
