package io.volumizer.campaigns.run;

import java.util.Map;
import java.util.Set;

import io.volumizer.options.conventions.MetricNames;

/**
 * When an import step is through, from readings of the stores and of the dead letters by stage:
 * <ul>
 * <li>MongoDB holds the expected documents but those the stages before it dead-lettered;</li>
 * <li>the index holds what MongoDB holds but what the index stage dead-lettered;</li>
 * <li>MongoDB did not move since the reading before, so the index was compared with a finished import.</li>
 * </ul>
 * The index is compared with MongoDB, not with the expected size: dead letters of documents the stores hold anyway
 * (copies an interrupted attempt left on the documents topic, dead-lettered when their parents had left it) would
 * let the index's sum pass the size while its last documents were still on their way.
 */
final class ImportCompletion {

    /** Stages whose dead letters are documents MongoDB holds: the index's, and the file text's (indexed without it). */
    private static final Set<String> AFTER_MONGODB = Set.of(MetricNames.INDEX, MetricNames.FILE_TEXT);

    private final long expected;
    private long importedBefore = -1;

    /** @param expected the documents the repository holds once the step's size is generated */
    ImportCompletion(long expected) {
        this.expected = expected;
    }

    /** The dead letters of the stages up to MongoDB's, from the counts by stage. */
    static long beforeMongoDb(Map<String, Long> deadLettersByStage) {
        return deadLettersByStage.entrySet().stream().filter(entry -> !AFTER_MONGODB.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** The index stage's dead letters, from the counts by stage. */
    static long byIndex(Map<String, Long> deadLettersByStage) {
        return deadLettersByStage.getOrDefault(MetricNames.INDEX, 0L);
    }

    /** Takes a reading; whether the step is through with it (and the reading before). */
    boolean through(long imported, long indexed, Map<String, Long> deadLettersByStage) {
        boolean settled = imported == importedBefore;
        importedBefore = imported;
        return settled && imported + beforeMongoDb(deadLettersByStage) >= expected
                && indexed + byIndex(deadLettersByStage) >= imported;
    }
}
