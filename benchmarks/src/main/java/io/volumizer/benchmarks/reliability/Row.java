package io.volumizer.benchmarks.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.volumizer.harness.BadInput;
import io.volumizer.harness.StoreAudit;
import io.volumizer.harness.StoreAudit.ImportedTopic;

/**
 * A rescaled scenario's run at one parallelism: the seconds from the stop with a savepoint until the jobs ran again
 * (none for the first), the documents a second into MongoDB while it lasted, and its checkpoints' median state
 * size and duration.
 */
record Phase(int parallelism, Double resumeSeconds, double docsPerSecond, long checkpointBytes, long checkpointMillis) {
}

/** A live repository's files' text: the good documents with a readable file, and the texts each store holds. */
record FileTexts(long expected, long indexed, long stored) {

    boolean complete() {
        return indexed == expected && stored == expected;
    }

    String describe() {
        return String.format(Locale.ROOT, "files' text: %,d of %,d indexed, %,d stored", indexed, expected, stored);
    }
}

/**
 * One scenario's audit; {@code docsPerSecond}: documents into both stores per second, from the jobs' submission
 * until every good one is in both (as polled, twice a second); {@code injectedKinds}, {@code reasonsByKind}: the bad and hostile records injected
 * by kind, and the dead letters of each kind (and of good documents) by reason class; {@code fileTexts}: on the
 * live topology only.
 */
record Row(String scenario, String fault, String jobs, long documents, long badRecords, StoreAudit.Findings mongodb,
        StoreAudit.Findings elasticsearch, long expectedDeadLetters, long unexpectedDeadLetters,
        Map<String, Long> deadLetterReasons, ImportedTopic importedTopic, Double faultSeconds, Double recoverySeconds,
        long seconds, Double docsPerSecond, Map<String, Long> injectedKinds, Map<String, Map<String, Long>> reasonsByKind,
        Long fileTextFailed, FileTexts fileTexts, List<Phase> phases, String error) {

    /** A scenario that could not run to its audit. */
    static Row failed(Scenario scenario, Duration outage, long documents, Exception error) {
        StoreAudit.Findings none = new StoreAudit.Findings(0, documents, 0, 0);
        return new Row(scenario.id(), scenario.fault().description(outage), scenario.topology().name(), documents, 0, none,
                none, 0, 0, Map.of(), null, null, null, 0, null, Map.of(), Map.of(), null, null, null, error.toString());
    }

    /**
     * Nothing lost, nothing extra, no good document dead-lettered, exactly the bad records dead-lettered; on the
     * live topology, every readable file's text in both stores.
     */
    boolean passed() {
        return error == null && mongodb.exact() && elasticsearch.exact() && unexpectedDeadLetters == 0
                && expectedDeadLetters == badRecords && (importedTopic == null
                        || importedTopic.records() == documents && importedTopic.documents() == documents)
                // every PDF bomb's text given up, no other file's
                && (fileTextFailed == null
                        || fileTextFailed.longValue() == injectedKinds.getOrDefault(BadInput.Kind.PDF_BOMB.name(), 0L))
                && (fileTexts == null || fileTexts.complete());
    }

    String summary() {
        if (error != null) {
            return "FAILED to run: " + error;
        }
        return String.format(Locale.ROOT, "MongoDB %,d (missing %d, extra %d), search engine %,d (missing %d, extra %d),"
                + " dead letters %d expected / %d unexpected%s, recovery %s: %s", mongodb.found(), mongodb.missing(),
                mongodb.extra(), elasticsearch.found(), elasticsearch.missing(), elasticsearch.extra(),
                expectedDeadLetters, unexpectedDeadLetters, fileTexts == null ? "" : ", " + fileTexts.describe(),
                recovery(), passed() ? "OK" : "FAILED");
    }

    String recovery() {
        return recoverySeconds == null ? "—" : recoverySeconds == Double.MAX_VALUE ? "not within the run"
                : String.format(Locale.ROOT, "%.0f s", recoverySeconds);
    }
}
