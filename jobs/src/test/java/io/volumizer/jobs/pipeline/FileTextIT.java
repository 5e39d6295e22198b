package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.generators.render.FileText;
import io.volumizer.jobs.testing.LiveRun;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.ThrottleSettings.Change;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;

/**
 * A file's text read while its document changes, by the index job of the text alone ({@code --file-text only}) beside
 * the metadata's: whatever order the metadata, the texts and a delete reach MongoDB and Elasticsearch in, a document
 * ends at its newest version with that version's text, and a deleted one stays deleted.
 */
class FileTextIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LIVE = LiveRun.REPOSITORY;
    private static final int CUSTOMERS = 4;
    private static final int STATEMENTS = 3;
    /** Longer than a running job takes to read what it was given: a paused one has read nothing by then. */
    private static final Duration SETTLE = Duration.ofSeconds(5);

    private LiveRun live;
    private ScopedRun it;
    private SearchEngine search;

    @BeforeEach
    void configure(@TempDir Path folder) throws IOException {
        live = new LiveRun(folder);
        it = live.it;
        search = live.search;
    }

    @AfterEach
    void cleanUp() throws Exception {
        live.close();
    }

    @Test
    void aDocumentChangedWhileItsTextIsReadEndsWithItsNewestVersionAndThatVersionsText() throws Exception {
        it.submit(Step.IMPORT, it.args("--group-id", "it-import-" + it.run), null);
        it.submit(Step.INDEX, it.args("--index-group-id", "it-index-" + it.run, "--file-text", "none"), null);
        it.generate(CUSTOMERS, STATEMENTS);
        List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
        List<DocumentEvent> statements = generated.stream().filter(d -> d.getType().equals("Statement")).toList();
        DocumentEvent changed = statements.get(0);
        DocumentEvent deleted = statements.get(1);
        DocumentEvent other = statements.get(statements.size() - 1); // another customer's: other counterparties
        String changedOnly = distinctCounterparty(changed, other);
        String otherOnly = distinctCounterparty(other, changed);
        await("documents in MongoDB", () -> collection().countDocuments(), generated.size(), Duration.ofMinutes(3));
        await("documents in Elasticsearch", () -> it.stores.elasticsearchCount(LIVE), generated.size(),
                Duration.ofMinutes(3));

        // Before any text is read (the text's job is not running yet), one statement gets the other's file, another
        // is deleted: the texts of their first versions, read next, are of versions that are gone.
        send(changed(changed, 2, other.getBlob(), "replaced"), changed(deleted, 2, deleted.getBlob(), null));
        await("the change and the delete in MongoDB", () -> collection().countDocuments(Filters.or(
                Filters.and(Filters.eq(DocumentFields.KEY, changed.getId()), Filters.eq(DocumentFields.VERSION, 2L)),
                Filters.and(Filters.eq(DocumentFields.KEY, deleted.getId()), Filters.eq(DocumentFields.DELETED, true)))),
                2, Duration.ofMinutes(1));
        await("the delete in Elasticsearch", () -> it.stores.elasticsearchCount(LIVE), generated.size() - 1,
                Duration.ofMinutes(1));
        String textJob = it.submit(Step.INDEX, it.args("--index-group-id", "it-file-text-" + it.run, "--file-text", "only"), null);
        long withText = generated.stream()
                .filter(d -> FileText.readable(d.getBlob())).count() - 1;
        await("documents with their file's text", () -> it.stores.searchableFileTexts(it.pipeline.indices(), LIVE),
                withText, Duration.ofMinutes(3));
        // Both first versions' texts read and found stale, not merely not yet read.
        await("stale texts", () -> (long) PrometheusScrape.of(ScopedRun.FLINK_METRICS).sum(
                MetricNames.prometheusName(MetricNames.STALE), Map.of(MetricNames.JOB_ID_LABEL, textJob, MetricNames.STAGE_LABEL,
                MetricNames.prometheusLabelValue(MetricNames.FILE_TEXT))), 2, Duration.ofMinutes(1));

        SearchResult.Hit hit = hitOf(find(otherOnly), changed.getId());
        assertThat(hit.source().path(DocumentFields.VERSION).asLong()).isEqualTo(2);
        assertThat(hit.source().path(DocumentFields.TITLE).asText()).isEqualTo("replaced");
        assertThat(ids(find(changedOnly))).as("its first file's text").doesNotContain(changed.getId());
        assertThat(ids(find(counterparty(deleted)))).as("a deleted document's text").doesNotContain(deleted.getId());
        assertThat(storedText(changed).getLong(DocumentFields.FileText.VERSION)).isEqualTo(2);
        assertThat(storedText(deleted)).as("a deleted document's text").isNull();

        // Changed back while both jobs run: the metadata and the text of version 3 land in either order; the end is
        // version 3 with its first file's text.
        send(changed(changed, 3, changed.getBlob(), "restored"));
        await("version 3's text", () -> find(changedOnly).stream().filter(h -> h.id().equals(changed.getId()))
                .filter(h -> h.source().path(DocumentFields.VERSION).asLong() == 3).count(), 1, Duration.ofMinutes(2));
        assertThat(ids(find(otherOnly))).as("version 2's text").doesNotContain(changed.getId());
        assertThat(it.stores.searchableFileTexts(it.pipeline.indices(), LIVE)).isEqualTo(withText);
        assertThat(storedText(changed).getLong(DocumentFields.FileText.VERSION)).isEqualTo(3);
        assertThat(it.deadLetters()).isZero();
    }

    /**
     * The text's own throttle ({@code bin/volumizer throttle file-text pause}) holds the index job of the text alone
     * and leaves the metadata's running: every document imported and indexed, no text read until resumed.
     */
    @Test
    void theTextsOwnThrottleHoldsTheTextsJobAndLeavesTheMetadatasIndexAlone() throws Exception {
        ThrottleSettings throttles = new ThrottleSettings(it.pipeline.kafka.clientProperties(), it.pipeline.registry.url,
                it.pipeline.controlTopic(), it.pipeline.topicSettings);
        String target = IndexSettings.FileText.THROTTLE_TARGET;
        throttles.change(target, new Change.Paused(true), "FileTextIT");
        try {
            it.submit(Step.IMPORT, it.args("--group-id", "it-import-" + it.run), null);
            it.submit(Step.INDEX, it.args("--index-group-id", "it-index-" + it.run, "--file-text", "none"), null);
            it.submit(Step.INDEX, it.args("--index-group-id", "it-file-text-" + it.run, "--file-text", "only"), null);
            it.generate(CUSTOMERS, STATEMENTS);
            List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
            await("documents in MongoDB", () -> collection().countDocuments(), generated.size(), Duration.ofMinutes(3));
            await("documents in Elasticsearch", () -> it.stores.elasticsearchCount(LIVE), generated.size(),
                    Duration.ofMinutes(3));
            Thread.sleep(SETTLE.toMillis());
            assertThat(it.stores.storedFileTexts(LIVE)).as("texts stored").isZero();
            assertThat(it.stores.searchableFileTexts(it.pipeline.indices(), LIVE)).as("texts indexed").isZero();

            throttles.change(target, new Change.Paused(false), "FileTextIT");
            await("documents with their file's text", () -> it.stores.searchableFileTexts(it.pipeline.indices(), LIVE),
                    generated.stream().filter(d -> FileText.readable(d.getBlob())).count(), Duration.ofMinutes(3));
        } finally {
            throttles.change(target, new Change.Setting(0, false), "FileTextIT"); // the control topic is shared
        }
    }

    /** A counterparty of {@code statement}'s operations that is none of {@code other}'s. */
    private String distinctCounterparty(DocumentEvent statement, DocumentEvent other) {
        List<String> others = it.counterparties(other, CUSTOMERS, STATEMENTS);
        return it.counterparties(statement, CUSTOMERS, STATEMENTS).stream().filter(c -> !others.contains(c))
                .findFirst().orElseThrow();
    }

    private String counterparty(DocumentEvent statement) {
        return it.counterparties(statement, CUSTOMERS, STATEMENTS).get(0);
    }

    /**
     * {@code document} at {@code version}: with {@code blob} and {@code title}, or deleted when the title is null; of
     * the repository the generate step routed it to, as a change of it is.
     */
    private static DocumentEvent changed(DocumentEvent document, long version, BlobRef blob, String title) {
        DocumentEvent.Builder change = DocumentEvent.newBuilder(document).setRepository(LIVE).setVersion(version)
                .setBlob(BlobRef.newBuilder(blob).build()).setParentVersion(null);
        return title == null ? change.setOperation(Operation.DELETE).build()
                : change.setOperation(Operation.UPDATE).setTitle(title).build();
    }

    private void send(DocumentEvent... changes) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, it.pipeline.kafka.bootstrapServers);
        try (var producer = new KafkaProducer<>(config, new StringSerializer(),
                KafkaAvroSerde.serializer(it.pipeline.registry.url, DocumentEvent.class))) {
            for (DocumentEvent change : changes) {
                producer.send(new ProducerRecord<>(it.pipeline.documentsTopic(), DocumentKeys.parentKey(change), change));
            }
        }
    }

    /** The documents whose file's text holds {@code phrase}, once everything written is searchable. */
    private List<SearchResult.Hit> find(String phrase) throws IOException {
        String alias = it.pipeline.indices().of(LIVE);
        search.indices(it.pipeline.indices()).refresh(alias);
        ObjectNode query = JSON.createObjectNode();
        query.putObject("match_phrase").put(DocumentFields.FILE_TEXT, phrase);
        return search.reader().search(List.of(alias), SearchQuery.of(query).withSize(100)
                .withFields(List.of(DocumentFields.VERSION, DocumentFields.TITLE))).hits();
    }

    private static SearchResult.Hit hitOf(List<SearchResult.Hit> hits, String id) {
        return hits.stream().filter(h -> h.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " not found among " + ids(hits)));
    }

    private static List<String> ids(List<SearchResult.Hit> hits) {
        return hits.stream().map(SearchResult.Hit::id).toList();
    }

    private MongoCollection<Document> collection() {
        return it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(LIVE);
    }

    /** The document's file's text stored in MongoDB, if any. */
    private Document storedText(DocumentEvent document) {
        return MongoRepositories.sharing(it.mongo, it.pipeline.mongodb.database).fileTexts(LIVE)
                .find(Filters.eq(DocumentFields.KEY, document.getId())).first();
    }
}
