package io.volumizer.campaigns.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.options.conventions.MetricNames;

class ImportCompletionTest {

    @Test
    void deadLettersOfCopiesMongoDbHoldsDoNotEndTheStepWhileTheIndexIsBehind() {
        // As the 10M step ended: the copies of an interrupted attempt dead-lettered, 31 documents not yet indexed.
        ImportCompletion completion = new ImportCompletion(10_000_000);
        Map<String, Long> copies = Map.of(MetricNames.IMPORT, 65_285L);
        assertThat(completion.through(10_000_023, 9_999_992, copies)).isFalse();
        assertThat(completion.through(10_000_023, 9_999_992, copies)).isFalse();
        assertThat(completion.through(10_000_023, 10_000_023, copies)).isTrue();
    }

    @Test
    void mongoDbStillMovingIsNotThroughEvenWhenTheIndexCaughtUp() {
        ImportCompletion completion = new ImportCompletion(1_000);
        Map<String, Long> copies = Map.of(MetricNames.IMPORT, 100L);
        assertThat(completion.through(950, 950, copies)).isFalse();
        assertThat(completion.through(990, 990, copies)).isFalse();
        assertThat(completion.through(1_000, 1_000, copies)).isFalse();
        assertThat(completion.through(1_000, 1_000, copies)).isTrue();
    }

    @Test
    void documentsDeadLetteredBeforeMongoDbCountTowardsTheSizeAndThoseOfTheIndexTowardsMongoDb() {
        ImportCompletion completion = new ImportCompletion(1_000);
        Map<String, Long> letters = Map.of(MetricNames.IMPORT, 3L, MetricNames.INDEX, 2L, MetricNames.FILE_TEXT, 5L);
        completion.through(997, 995, letters);
        assertThat(completion.through(997, 995, letters)).isTrue();

        ImportCompletion mongoDbShort = new ImportCompletion(1_000);
        mongoDbShort.through(996, 996, letters);
        assertThat(mongoDbShort.through(996, 996, letters)).as("the file text's dead letters are indexed documents")
                .isFalse();
        ImportCompletion indexBehind = new ImportCompletion(1_000);
        indexBehind.through(997, 994, letters);
        assertThat(indexBehind.through(997, 994, letters)).isFalse();
    }
}
