package io.volumizer.jobs.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.jobs.testing.Documents;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * A bulk command's slices, each read by an operator of its own as parallel subtasks read them, against the local
 * MongoDB and search engine (Elasticsearch, and OpenSearch in the build's second run): on OpenSearch every slice reads
 * the command's one point in time, and one that is gone is replaced once; on Elasticsearch each reads a scroll. Every
 * slice reads the generation the alias pointed to when the first started, though a reindex moves the alias.
 */
class ReadSliceIT {

    private static final int SLICES = 3;
    private static final int DOCUMENTS = 120;
    private static final Duration KEEP_ALIVE = Duration.ofMinutes(1);

    private ScopedRun it;
    private SearchEngine search;
    private SearchIndices indices;
    private CommandStore commands;
    private String commandId;

    @BeforeEach
    void indexARepository() throws IOException {
        it = new ScopedRun(JobsJar.path());
        search = SearchEngines.open(it.pipeline.search);
        indices = search.indices(it.pipeline.indices());
        indices.installTemplate(); // as the pipeline's jobs do before their first write
        index(0, DOCUMENTS, 3);
        commands = new CommandStore(it.mongo.getDatabase(it.pipeline.mongodb.database));
        commandId = "read-slice-" + it.run;
        commands.createIfAbsent(commandId, "setProperties", it.repository, new Document());
    }

    @AfterEach
    void cleanUp() throws Exception {
        search.close();
        it.close();
    }

    @Test
    void everySliceReadsTheCommandsPointInTimeAndOneThatIsGoneIsReplacedOnce() throws Exception {
        String generation = indices.current(it.repository).orElseThrow();
        List<Selected> first = readSlice(0);
        Document record = commands.find(commandId).orElseThrow();
        assertThat(record.getString(CommandStore.SELECTION_INDEX)).as("the alias's generation, recorded")
                .isEqualTo(generation);
        if (!search.name().equals(SearchOptions.Engine.opensearch.name())) {
            assertThat(record.getString(CommandStore.SELECTION_READ))
                    .isEqualTo(CommandStore.SelectionRead.SLICED_SCROLL.name());
            assertThat(record.getString(CommandStore.POINT_IN_TIME)).isNull();
            moveTheAliasToAnEmptyGeneration();
            Set<String> ids = ids(first);
            ids.addAll(ids(readSlice(1)));
            ids.addAll(ids(readSlice(2)));
            assertThat(ids).hasSize(DOCUMENTS);
            return;
        }
        assertThat(record.getString(CommandStore.SELECTION_READ))
                .isEqualTo(CommandStore.SelectionRead.POINT_IN_TIME.name());
        String opened = record.getString(CommandStore.POINT_IN_TIME);
        assertThat(opened).as("opened by the first slice, for the others").isNotBlank();

        // Changed after the point in time opened: a newer version of every document, and documents it never held.
        index(0, DOCUMENTS + 30, 4);
        List<Selected> second = readSlice(1);
        assertThat(second).isNotEmpty().allSatisfy(selected -> assertThat(selected.version()).isEqualTo(3));
        assertThat(commands.find(commandId).orElseThrow().getString(CommandStore.POINT_IN_TIME)).isEqualTo(opened);
        Set<String> snapshot = ids(first);
        snapshot.addAll(ids(second));

        search.reader().closePointInTime(opened); // as its keep-alive passing while the job was down closes it
        moveTheAliasToAnEmptyGeneration();
        List<Selected> third = readSlice(2);
        String replacement = commands.find(commandId).orElseThrow().getString(CommandStore.POINT_IN_TIME);
        search.reader().closePointInTime(replacement);
        assertThat(replacement).as("a new one, recorded for every slice").isNotBlank().isNotEqualTo(opened);
        assertThat(commands.replacePointInTime(commandId, opened, "a slice that found it gone later"))
                .as("a slice that finds the replaced one gone later does not record its own").isFalse();
        assertThat(third).isNotEmpty().allSatisfy(selected -> assertThat(selected.version()).isEqualTo(4));
        assertThat(ids(third)).as("a slice holds the same documents in any snapshot of its generation: slice 2 of "
                + "a scroll of it now").isEqualTo(scrolledNow(generation, 2)).doesNotContainAnyElementsOf(snapshot);
        snapshot.addAll(ids(third).stream().filter(id -> Integer.parseInt(id.substring(2)) < DOCUMENTS).toList());
        assertThat(snapshot).as("every document the command's snapshot held, once").hasSize(DOCUMENTS);
    }

    @Test
    void aGenerationDeletedUnderTheCommandFailsItWithoutRestarts() throws Exception {
        readSlice(0);
        String generation = commands.find(commandId).orElseThrow().getString(CommandStore.SELECTION_INDEX);
        moveTheAliasToAnEmptyGeneration();
        indices.deleteGeneration(generation);

        assertThatThrownBy(() -> readSlice(1)).isInstanceOf(SuppressRestartsException.class)
                .cause().hasMessageContaining(generation + ", was deleted");
        Document record = commands.find(commandId).orElseThrow();
        assertThat(record.getString(CommandStore.STATE)).isEqualTo(CommandStore.State.FAILED.name());
        assertThat(record.getString(CommandStore.ERROR)).contains(generation + ", was deleted");
    }

    /** Documents {@code from} to {@code to} (excluded) of the test's repository, at {@code version}, searchable. */
    private void index(int from, int to, long version) throws IOException {
        List<ImportedEvent> documents = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ImportedEvent imported = Documents.imported("d-" + i);
            documents.add(ImportedEvent.newBuilder(imported).setDocument(DocumentEvent.newBuilder(imported.getDocument())
                    .setRepository(it.repository).setVersion(version).setModified(Instant.EPOCH).build()).build());
        }
        assertThat(indices.writer(Backoff.DEFAULT).write(documents).written()).hasSize(to - from);
        indices.refresh(it.pipeline.indices().of(it.repository));
    }

    /** As a reindex moves it: to a new generation, with nothing in it. */
    private void moveTheAliasToAnEmptyGeneration() throws IOException {
        String next = indices.createForReindex(it.repository);
        indices.finishLoad(it.repository, next);
        indices.swap(it.repository, next);
    }

    /** One slice of the command's selection (every document), read by an operator of its own. */
    private List<Selected> readSlice(long slice) throws Exception {
        ReadSlice read = new ReadSlice(SearchConnection.of(it.pipeline), it.repository, new LinkedHashMap<>(Map.of()),
                SLICES, 7, KEEP_ALIVE, MongoConnection.of(it.pipeline), commandId, Backoff.DEFAULT);
        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(read))) {
            harness.open();
            harness.processElement(new StreamRecord<>(slice));
            return harness.extractOutputValues();
        }
    }

    /** The ids of slice {@code slice} of {@code index} as a scroll opened now reads it. */
    private Set<String> scrolledNow(String index, int slice) throws IOException {
        Set<String> ids = new HashSet<>();
        ScanRequest request = new ScanRequest(null, slice, SLICES, 50, KEEP_ALIVE, List.of(), null, null);
        try (SearchReader.Scan scan = search.reader().scan(index, request)) {
            for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                page.forEach(hit -> ids.add(hit.id()));
            }
        }
        return ids;
    }

    private static Set<String> ids(List<Selected> selected) {
        Set<String> ids = new HashSet<>();
        selected.forEach(one -> ids.add(one.id()));
        return ids;
    }
}
