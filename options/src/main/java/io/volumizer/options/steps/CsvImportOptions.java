package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import io.volumizer.schemas.keys.RepositoryNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Options of the CSV import: which files, into which repository, where their blobs are, how they are split. */
@Command(name = "import-csv", description = "Reads CSV files (a file or a folder, local or s3://) into the documents "
        + "topic, one document per row; rows that cannot become documents go to the dead-letter topic with their line.",
        footer = {"%nExample:", "  bin/volumizer import-csv copy /tmp/bank/documents.csv"})
public final class CsvImportOptions extends PipelineStepOptions {

    @Option(names = "--path", required = true, description = "A CSV file, or a folder of them (*.csv), local or "
            + "s3://bucket/key (S3 with --s3-endpoint and --s3-region).")
    public String path;

    @Option(names = "--repository", required = true, description = "The repository every row goes to (a row's own "
            + "repository column is not used: an export of one repository imports into another).")
    public String repository;

    @Option(names = "--blobs", description = "The folder a row's blob path (column file:content) is relative to; "
            + "the files are stored in the repository's blob store.")
    public String blobs;

    @Option(names = "--split-size", defaultValue = "67108864", description = "Bytes of a file one subtask reads "
            + "at a time (cut at a row's end; default: ${DEFAULT-VALUE}).")
    public long splitSize;

    /**
     * One by default: the rows reach the topic in file order, so a parent written before its children arrives before
     * them. Readers side by side put the first rows of a split ahead of the last rows of the one before, by as long as
     * a split takes to read; the import's wait for a parent is measured against the margin, not against the file.
     */
    @Option(names = "--readers", defaultValue = "1", description = "Subtasks reading the files' splits side by side "
            + "(default: ${DEFAULT-VALUE}: rows in file order). More read faster, but a parent at a split's end reaches "
            + "the import a split's reading after its children at the next one's start: orphans if that is longer than "
            + "--parent-wait-margin (docs/decisions/csv-one-reader.md). Each reader turns its rows into documents and writes them.")
    public int readers;

    @Override
    protected void validateStep() {
        require(RepositoryNames.isValid(repository), "--repository: " + RepositoryNames.RULE + ", was '" + repository + "'");
        require(splitSize >= 1024, "--split-size must be at least 1024 bytes, was " + splitSize);
        require(readers >= 1, "--readers must be at least 1, was " + readers);
    }

    @Override
    public String instance() {
        return repository + " " + path;
    }
}
