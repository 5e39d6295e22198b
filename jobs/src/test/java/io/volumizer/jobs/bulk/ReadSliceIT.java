package io.volumizer.jobs.bulk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.internal.stores.MongoConnection;
import io.volumizer.jobs.internal.stores.SearchConnection;
import io.volumizer.jobs.testing.Documents;
import io.volumizer.jobs.testing.PipelineRun;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * A bulk command's slices, each read by an operator of its own as parallel subtasks read them, against the local
 * MongoDB and search engine (Elasticsearch, and OpenSearch in the build's second run): on OpenSearch every slice reads
 * the command's one point in time, and one that is gone is replaced once; on Elasticsearch each reads a scroll.
 */
class ReadSliceIT {

    private static final int SLICES = 3;
    private static final int DOCUMENTS = 120;
    private static final Duration KEEP_ALIVE = Duration.ofMinutes(1);

    private PipelineRun it;
    private SearchEngine search;
    private SearchIndices indices;
    private CommandStore commands;
    private String commandId;

    @BeforeEach
    void indexARepository() throws IOException {
        it = new PipelineRun();
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
        List<Selected> first = readSlice(0);
        Document record = commands.find(commandId).orElseThrow();
        if (!search.name().equals("opensearch")) {
            assertThat(record.getString(CommandStore.SELECTION_READ)).isEqualTo("SLICED_SCROLL");
            assertThat(record.getString(CommandStore.POINT_IN_TIME)).isNull();
            Set<String> ids = ids(first);
            ids.addAll(ids(readSlice(1)));
            ids.addAll(ids(readSlice(2)));
            assertThat(ids).hasSize(DOCUMENTS);
            return;
        }
        assertThat(record.getString(CommandStore.SELECTION_READ)).isEqualTo("POINT_IN_TIME");
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
        List<Selected> third = readSlice(2);
        String replacement = commands.find(commandId).orElseThrow().getString(CommandStore.POINT_IN_TIME);
        assertThat(replacement).as("a new one, recorded for every slice").isNotBlank().isNotEqualTo(opened);
        assertThat(commands.replacePointInTime(commandId, opened, "a slice that found it gone later"))
                .as("the later of two slices that found it gone reads the earlier's replacement").isFalse();
        assertThat(third).isNotEmpty().allSatisfy(selected -> assertThat(selected.version()).isEqualTo(4));
        assertThat(ids(third)).as("a slice holds the same documents in any snapshot: slice 2 of a scroll now")
                .isEqualTo(scrolledNow(2)).doesNotContainAnyElementsOf(snapshot);
        snapshot.addAll(ids(third).stream().filter(id -> Integer.parseInt(id.substring(2)) < DOCUMENTS).toList());
        assertThat(snapshot).as("every document the command's snapshot held, once").hasSize(DOCUMENTS);
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

    /** The ids of slice {@code slice} as a scroll opened now reads it. */
    private Set<String> scrolledNow(int slice) throws IOException {
        Set<String> ids = new HashSet<>();
        ScanRequest request = new ScanRequest(null, slice, SLICES, 50, KEEP_ALIVE, List.of(), null, null);
        try (SearchReader.Scan scan = search.reader().scan(it.pipeline.indices().of(it.repository), request)) {
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
