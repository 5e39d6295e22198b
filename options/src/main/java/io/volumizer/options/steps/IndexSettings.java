package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import java.time.Duration;

import picocli.CommandLine.Option;

/** How the index stage batches, and reads files' text (a mixin of the index and import-and-index jobs). */
public final class IndexSettings {

    @Option(names = "--index-batch-size", defaultValue = "1000", description = "Documents per _bulk request (default: ${DEFAULT-VALUE}).")
    public int batchSize;

    @Option(names = "--index-batch-bytes", defaultValue = "5242880", description = "Estimated bytes per _bulk request (default: ${DEFAULT-VALUE}).")
    public long batchBytes;

    @Option(names = "--index-flush-interval", defaultValue = "PT1S", description = "Longest a document waits in a batch (default: ${DEFAULT-VALUE}).")
    public Duration flushInterval;

    @Option(names = "--file-text-timeout", defaultValue = "PT30S", description = "Longest the text of one file of a "
            + "live repository is read for; past it the document is indexed without its text, and the next file read "
            + "on a fresh worker (default: ${DEFAULT-VALUE}).")
    public Duration fileTextTimeout;

    @Option(names = "--file-text-max-chars", defaultValue = "100000", description = "Characters of a file's text "
            + "indexed at most (Elasticsearch's ingest-attachment default): a PDF is read no further, so a file whose "
            + "pages expand to gigabytes of text costs no more (default: ${DEFAULT-VALUE}).")
    public int fileTextMaxChars;

    @Option(names = "--file-text-max-memory", defaultValue = "268435456", description = "Bytes that reading one file's "
            + "text may allocate (its decoded streams, fonts and text), checked as the file's bytes are read; past it "
            + "the file is given up and its document indexed without its text, so a stream that inflates to gigabytes "
            + "is stopped at the budget (default: ${DEFAULT-VALUE}, 256 MiB).")
    public long fileTextMaxMemory;

    /** Where a live repository's files' text is read and indexed, as {@code --file-text} names it. */
    public enum FileText {
        /** In a branch of this job: apart from the metadata's writes, but fed by the same source. */
        branch,
        /** Not in this job: another reads the imported topic for it ({@code only}). */
        none,
        /** Only the files' text: this job reads the imported topic in a consumer group of its own for it. */
        only;

        /**
         * The throttle target of the index jobs of the files' text alone ({@code only}), obeyed beside the index
         * step's: {@code bin/volumizer throttle file-text 300} limits the imported documents such a job reads (with
         * a file or not) and leaves the metadata's index job alone (a pause of {@code index} still pauses both).
         */
        public static final String THROTTLE_TARGET = "file-text";
    }

    @Option(names = "--file-text", defaultValue = "branch", description = "Where live repositories' files' text is read "
            + "and indexed: 'branch', in a branch of this job (fed by the metadata's source, so a slower extraction "
            + "holds it back); 'none', not in this job; 'only', the index job reading the imported topic for the text "
            + "alone, in a consumer group of its own (volumizer-<repository>-file-text), beside an index job of 'none' "
            + "(default: ${DEFAULT-VALUE}).")
    public FileText fileText;

    @Option(names = "--file-text-parallelism", defaultValue = "0", description = "Subtasks that read live repositories' "
            + "files' text and index it, apart from the metadata's; 0 for the job's parallelism (default: ${DEFAULT-VALUE}).")
    public int fileTextParallelism;

    @Option(names = "--file-text-slot-sharing-group", defaultValue = "default", description = "The slot sharing group "
            + "of the file text's operators: the job's by default; any other name gives them slots of their own (a job "
            + "of parallelism p with a live repository then takes p + --file-text-parallelism slots, which a session "
            + "cluster must have free; the chart's deployments get them as they ask) (default: ${DEFAULT-VALUE}).")
    public String fileTextSlotSharingGroup;

    /** For a job that writes no imported topic another could read the text from (import-and-index, reindex). */
    public void requireFileTextHere(Step step) {
        require(fileText == FileText.branch, "--file-text " + fileText + " is the index job's: " + step.id()
                + " reads no imported topic that another job could read the files' text from");
    }

    public void validate() {
        require(batchSize >= 1, "--index-batch-size must be at least 1, was " + batchSize);
        require(batchBytes >= 1024, "--index-batch-bytes must be at least 1024, was " + batchBytes);
        require(flushInterval.toMillis() >= 1, "--index-flush-interval must be positive, was " + flushInterval);
        require(fileTextTimeout.toMillis() >= 1, "--file-text-timeout must be positive, was " + fileTextTimeout);
        require(fileTextMaxChars >= 1, "--file-text-max-chars must be at least 1, was " + fileTextMaxChars);
        require(fileTextMaxMemory >= 1024 * 1024, "--file-text-max-memory must be at least 1048576 (1 MiB), was "
                + fileTextMaxMemory);
        require(fileTextParallelism >= 0, "--file-text-parallelism must be 0 (the job's) or more, was " + fileTextParallelism);
        require(!fileTextSlotSharingGroup.isBlank(), "--file-text-slot-sharing-group must name a group");
    }
}
