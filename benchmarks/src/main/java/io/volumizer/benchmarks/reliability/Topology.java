package io.volumizer.benchmarks.reliability;

/** Which jobs carry the documents, and the suffix of their scenarios' ids. */
enum Topology {
    IMPORT_AND_INDEX(""),
    SEPARATE_JOBS("-separate-jobs"),
    /** The CSV job reads the run's export into the documents topic while import-and-index runs, both hit. */
    CSV_IMPORT("-csv-import"),
    /** Import-and-index into one live repository: the branch that reads its files' text is hit as well. */
    LIVE_FILE_TEXT("-live-file-text"),
    /**
     * A live repository as the chart's values-live.yaml deploys it: import, an index job of the metadata alone
     * ({@code --file-text none}) and one of the files' text alone ({@code --file-text only}), each its own job.
     */
    LIVE_TEXT_JOB("-live-text-job");

    final String idSuffix;

    Topology(String idSuffix) {
        this.idSuffix = idSuffix;
    }

    /** Whether the run's repository is live: its files' text read, every readable one to be found at the end. */
    boolean live() {
        return this == LIVE_FILE_TEXT || this == LIVE_TEXT_JOB;
    }
}
