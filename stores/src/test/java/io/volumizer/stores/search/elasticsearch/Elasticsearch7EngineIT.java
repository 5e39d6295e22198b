package io.volumizer.stores.search.elasticsearch;

import static io.volumizer.stores.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import org.elasticsearch.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.stores.search.SearchWriter;

/** The seam against the local Elasticsearch: what each item of a bulk request came to, generations, routing, scans. */
class Elasticsearch7EngineIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final IndexNames names = new IndexNames("it-" + UUID.randomUUID() + "-");
    private SearchEngine engine;
    private SearchIndices indices;
    private SearchWriter store;

    /** The local Elasticsearch, or the one the build names. */
    static SearchOptions localOptions() {
        SearchOptions options = new SearchOptions();
        options.urls = System.getProperty("volumizer.search.url." + System.getProperty("volumizer.search.engine"));
        return options;
    }

    @BeforeEach
    void connect() throws IOException {
        engine = SearchEngines.open(localOptions());
        indices = engine.indices(names);
        indices.installTemplate();
        store = indices.writer(Backoff.DEFAULT);
    }

    @AfterEach
    void cleanUp() throws IOException {
        indices.deleteAll();
        ((Elasticsearch7Engine) engine).send(new Request("DELETE", "/_index_template/" + names.template()));
        engine.close();
    }

    @Test
    void writesAreIdempotentAndMonotonicByVersionAndARefusedDocumentNamesTheReason() throws IOException {
        List<ImportedEvent> v2 = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            v2.add(imported("bank", "d-" + i, "p-" + i % 30, "n-" + i, 2, "Title " + i));
        }
        ImportedEvent badDate = withProperties(imported("bank", "bad", "p-1", "bad.pdf", 1, "Bad"),
                Map.of("openingDate", "not a date"));

        BulkResult<ImportedEvent> first = store.write(v2);
        BulkResult<ImportedEvent> replay = store.write(v2);
        BulkResult<ImportedEvent> mixed = store.write(List.of(imported("bank", "d-1", "p-1", "n-1", 1, "Old"),
                badDate, imported("bank", "d-2", "p-2", "n-2", 3, "New")));

        assertThat(first.written()).hasSize(1500);
        assertThat(replay.written()).hasSize(1500);
        assertThat(mixed.stale()).extracting(e -> e.getDocument().getId()).containsExactly("d-1");
        assertThat(mixed.written()).extracting(e -> e.getDocument().getId()).containsExactly("d-2");
        assertThat(mixed.failed()).singleElement().satisfies(failure -> {
            assertThat(failure.item()).isSameAs(badDate);
            assertThat(failure.reason()).startsWith("Elasticsearch 400 mapper_parsing_exception: ").contains("openingDate");
        });
        String alias = names.of("bank");
        indices.refresh(alias);
        SearchReader reader = engine.reader();
        assertThat(reader.count(List.of(alias), null)).isEqualTo(1500);
        assertThat(reader.get(alias, "d-2", null).orElseThrow().source().path("title").asText()).isEqualTo("New");
        assertThat(reader.get(alias, "d-1", null).orElseThrow().source().path("title").asText()).isEqualTo("Title 1");
        assertThat(reader.get(alias, "no-such-document", null)).isEmpty();
        assertThat(indices.repositories()).containsExactly("bank");
    }

    /**
     * A live repository's document is written twice, its metadata and then its file's text, by two stages that may
     * run in any order, be replayed, or fall behind a newer version: in every order the index ends with the newest
     * version and that version's text.
     */
    @Test
    void aFilesTextFollowsItsMetadataInAnyOrderAndNeverReplacesANewerVersionNorIsUndoneByAReplay() throws IOException {
        SearchWriter live = engine.indices(names, Map.of("live", new IndexLayout(null, null, null, null, null,
                IndexProfile.LIVE))).writer(Backoff.DEFAULT);
        // the text of version 1 is extracted while version 2 is imported and indexed
        assertThat(live.write(List.of(statement("changed", 1, null))).written()).hasSize(1);
        assertThat(live.write(List.of(statement("changed", 2, null))).written()).hasSize(1);
        assertThat(live.write(List.of(statement("changed", 1, "January"))).stale()).as("an older version's text")
                .hasSize(1);
        assertThat(live.write(List.of(statement("changed", 2, "February"))).written()).hasSize(1);
        assertThat(live.write(List.of(statement("changed", 2, null))).stale()).as("its metadata replayed").hasSize(1);
        // the text is extracted before the metadata is indexed (another subtask, a faster one)
        assertThat(live.write(List.of(statement("early", 1, "March"))).written()).hasSize(1);
        assertThat(live.write(List.of(statement("early", 1, null))).stale()).hasSize(1);
        // a newer version whose text is not extracted yet: indexed at once, without the old text
        live.write(List.of(statement("pending", 1, "April")));
        live.write(List.of(statement("pending", 2, null)));

        String alias = names.of("live");
        indices.refresh(alias);
        SearchReader reader = engine.reader();
        ObjectNode changed = reader.get(alias, "changed", null).orElseThrow().source();
        assertThat(changed.path("version").asLong()).isEqualTo(2);
        assertThat(changed.path("fileText").asText()).isEqualTo("February");
        assertThat(changed.path("fileTextIndexed").asBoolean()).isTrue();
        assertThat(reader.get(alias, "early", null).orElseThrow().source().path("fileText").asText()).isEqualTo("March");
        ObjectNode pending = reader.get(alias, "pending", null).orElseThrow().source();
        assertThat(pending.path("version").asLong()).isEqualTo(2);
        assertThat(pending.has("fileText")).isFalse();
        assertThat(pending.path("fileTextIndexed").asBoolean(true)).isFalse();
        ObjectNode march = JSON.createObjectNode();
        march.putObject("match").put("fileText", "march");
        assertThat(reader.count(List.of(alias), march)).isEqualTo(1);
    }

    /** A statement of the live repository with a PDF, in its metadata form ({@code text} null) or with its text. */
    private static ImportedEvent statement(String id, long version, String text) {
        ImportedEvent event = imported("live", id, "a-1", id + ".pdf", version, "Statement " + id);
        event.getDocument().setBlob(BlobRef.newBuilder().setKey("gen/v1/" + id)
                .setMimeType("application/pdf").setFilename(id + ".pdf").build());
        event.setFileText(text);
        return event;
    }

    @Test
    void aMergedIndexReportsItsPrimaryDocumentsAndBytesWhichGrowWithWhatItsDocumentsHold() throws IOException {
        // The large documents hold distinct words: a repeated one compresses to almost nothing, and then an
        // unmerged small index can outweigh it.
        Random words = new Random(7);
        List<ImportedEvent> small = new ArrayList<>();
        List<ImportedEvent> large = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            small.add(imported("small", "s-" + i, "p-1", "s-" + i, 1, "Title " + i));
            StringBuilder text = new StringBuilder("Title " + i);
            for (int word = 0; word < 200; word++) {
                text.append(' ').append(Long.toString(words.nextLong() & Long.MAX_VALUE, 36));
            }
            large.add(imported("large", "l-" + i, "p-1", "l-" + i, 1, text.toString()));
        }
        store.write(small);
        store.write(large);

        SearchIndices.StoredSize smallSize = indices.mergedPrimarySize(names.of("small"));
        SearchIndices.StoredSize largeSize = indices.mergedPrimarySize(names.of("large"));

        assertThat(smallSize.documents()).isEqualTo(300);
        assertThat(largeSize.documents()).isEqualTo(300);
        assertThat(smallSize.bytes()).isPositive();
        assertThat(largeSize.bytes()).isGreaterThan(smallSize.bytes());
    }

    @Test
    void aRequestOverTheEnginesSizeLimitIsHalvedUntilTheDocumentTooLargeAloneIsRefusedAndTheOthersAreWritten() {
        // Over Elasticsearch's http.max_content_length (100 MB): the title goes into the request twice (its field
        // and the fulltext), so the request carrying this document is over 120 MB, whatever the batch's estimate.
        ImportedEvent huge = imported("bank", "huge", "p-1", "huge.pdf", 1, "x".repeat(60_000_000));
        List<ImportedEvent> batch = List.of(imported("bank", "a", "p-1", "a.pdf", 1, "A"), huge,
                imported("bank", "b", "p-1", "b.pdf", 1, "B"), imported("bank", "c", "p-1", "c.pdf", 1, "C"));

        BulkResult<ImportedEvent> result = store.write(batch);

        assertThat(result.written()).extracting(e -> e.getDocument().getId()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(result.failed()).singleElement().satisfies(failure -> {
            assertThat(failure.item()).isSameAs(huge);
            assertThat(failure.reasonClass()).isEqualTo(ReasonClass.TOO_LARGE);
        });
    }

    @Test
    void aRepositoryShardedByCustomerKeepsACustomersDocumentsOnOneShardAndTheLayoutSurvivesAReindex() throws IOException {
        IndexLayout layout = new IndexLayout(3, 0, "5s", "best_compression", "customerNumber", IndexProfile.METADATA);
        SearchIndices sharded = engine.indices(names, Map.of("east", layout));
        List<ImportedEvent> documents = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            documents.add(withProperties(imported("east", "d-" + i, "p-" + i % 30, "n-" + i, 1, "Title " + i),
                    Map.of("customerNumber", String.format("%010d", i % 30))));
        }
        documents.add(imported("east", "root", "none", "east", 1, "East"));
        assertThat(sharded.writer(Backoff.DEFAULT).write(documents).written()).hasSize(301);

        String generation = sharded.current("east").orElseThrow();
        Map<String, String> settings = sharded.settings(generation);
        assertThat(settings).containsEntry("index.number_of_shards", "3").containsEntry("index.refresh_interval", "5s")
                .containsEntry("index.codec", "best_compression");

        String alias = names.of("east");
        sharded.refresh(alias);
        ObjectNode customer = JSON.createObjectNode();
        customer.putObject("term").put("properties.customerNumber", "0000000007");
        SearchResult targeted = engine.reader().search(List.of(alias), SearchQuery.of(customer).withSize(50)
                .withRouting("0000000007").withCountUpTo(Integer.MAX_VALUE));
        assertThat(targeted.shards().total()).isEqualTo(1);
        assertThat(targeted.total().value()).isEqualTo(10);
        SearchResult fanOut = engine.reader().search(List.of(alias), SearchQuery.of(null).withSize(0)
                .withCountUpTo(Integer.MAX_VALUE));
        assertThat(fanOut.shards().total()).isEqualTo(3);
        assertThat(fanOut.total().value()).isEqualTo(301);

        // A new generation for a reindex has the layout under its bulk-load settings, and gets it back at the end.
        String next = sharded.createForReindex("east");
        assertThat(sharded.settings(next)).containsEntry("index.refresh_interval", "-1");
        assertThat(sharded.writer(Backoff.DEFAULT).into(next).write(documents).written()).hasSize(301);
        sharded.finishLoad("east", next);
        assertThat(sharded.settings(next)).containsEntry("index.number_of_shards", "3")
                .containsEntry("index.refresh_interval", "5s").containsEntry("index.codec", "best_compression")
                .doesNotContainKey("index.translog.durability");
        assertThat(sharded.swap("east", next)).contains(generation);
        assertThat(sharded.current("east")).contains(next);
        assertThat(sharded.generations("east")).containsExactly(generation, next);
        sharded.deleteGeneration(generation);
        assertThat(sharded.exists(generation)).isFalse();
        assertThat(engine.reader().count(List.of(alias), customer)).isEqualTo(10);
    }

    @Test
    void aScanReadsEachSliceOfASnapshotOnceWithIdsAndVersions() throws IOException {
        List<ImportedEvent> documents = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            documents.add(imported("bank", "d-" + i, "p-" + i % 30, "n-" + i, 7, "Title " + i));
        }
        store.write(documents);
        String alias = names.of("bank");
        indices.refresh(alias);

        Set<String> seen = new HashSet<>();
        long total = 0;
        for (int slice = 0; slice < 2; slice++) {
            try (SearchReader.Scan scan = engine.reader().scan(alias, new ScanRequest(null, slice, 2, 40,
                    Duration.ofMinutes(1), List.of(), null, null))) {
                total += scan.total();
                for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                    assertThat(page).hasSizeLessThanOrEqualTo(40).allSatisfy(hit -> {
                        assertThat(hit.version()).isEqualTo(7);
                        assertThat(hit.source().isEmpty()).isTrue();
                    });
                    page.forEach(hit -> assertThat(seen.add(hit.id())).as(hit.id()).isTrue());
                }
            }
        }
        assertThat(total).isEqualTo(250);
        assertThat(seen).hasSize(250);
    }

    @Test
    void everySliceReadsOnePointInTimeOverEveryShardWhereTheEngineHasOne() throws IOException {
        SearchIndices sharded = engine.indices(names, Map.of("west",
                new IndexLayout(3, 0, null, null, null, IndexProfile.METADATA)));
        List<ImportedEvent> documents = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            documents.add(imported("west", "d-" + i, "p-" + i % 30, "n-" + i, 7, "Title " + i));
        }
        SearchWriter writer = sharded.writer(Backoff.DEFAULT);
        writer.write(documents);
        String alias = names.of("west");
        sharded.refresh(alias);

        Optional<String> opened = engine.reader().openPointInTime(alias, Duration.ofMinutes(1));
        if (!engine.name().equals(SearchOptions.Engine.opensearch.name())) {
            assertThat(opened).as("Elasticsearch OSS has no point in time: slices read scrolls").isEmpty();
            return;
        }
        assertThat(opened).as("OpenSearch " + engine.version() + " has points in time").hasValueSatisfying(
                id -> assertThat(id).isNotBlank());
        String pointInTime = opened.orElseThrow();
        // After it opened: a newer version of every tenth document, and documents it never held.
        List<ImportedEvent> later = new ArrayList<>();
        for (int i = 0; i < 400; i += 10) {
            later.add(imported("west", "d-" + i, "p-" + i % 30, "n-" + i, 8, "Title " + i));
        }
        for (int i = 400; i < 450; i++) {
            later.add(imported("west", "d-" + i, "p-" + i % 30, "n-" + i, 7, "Title " + i));
        }
        writer.write(later);
        sharded.refresh(alias);

        Set<String> seen = new HashSet<>();
        long total = 0;
        for (int slice = 0; slice < 2; slice++) {
            // Pages of 7 end on every shard in turn: a tie on _doc between shards is a page boundary somewhere.
            try (SearchReader.Scan scan = engine.reader().scan(alias, new ScanRequest(null, slice, 2, 7,
                    Duration.ofMinutes(1), List.of(), null, pointInTime))) {
                total += scan.total();
                for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                    page.forEach(hit -> {
                        assertThat(hit.version()).as(hit.id() + " as it was when the point in time opened").isEqualTo(7);
                        assertThat(seen.add(hit.id())).as(hit.id() + " read once").isTrue();
                    });
                }
            }
        }
        assertThat(total).isEqualTo(400);
        assertThat(seen).hasSize(400);

        engine.reader().closePointInTime(pointInTime);
        assertThatThrownBy(() -> engine.reader().scan(alias, new ScanRequest(null, 0, 2, 7, Duration.ofMinutes(1),
                List.of(), null, pointInTime))).isInstanceOfSatisfying(SearchException.class,
                e -> assertThat(e.kind()).isEqualTo(SearchException.Kind.NOT_FOUND));
    }

    private static ImportedEvent withProperties(ImportedEvent event, Map<String, Object> properties) {
        return ImportedEvent.newBuilder(event)
                .setDocument(DocumentEvent.newBuilder(event.getDocument()).setProperties(properties).build()).build();
    }
}
