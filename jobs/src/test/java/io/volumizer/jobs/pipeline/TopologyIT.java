package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.render.FileText;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.options.steps.Step;
import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;

/**
 * A generated run through the published topology ({@code topologies/11b.yaml}): every rule routes its documents,
 * the import resolves ancestors across repositories (an archived statement's account is in a live one), and the
 * live repositories index their files' text.
 */
class TopologyIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path PUBLISHED = Path.of("..", "topologies", "11b.yaml").toAbsolutePath().normalize();
    private static final int CUSTOMERS = 40;
    private static final int STATEMENTS = 12;

    private ScopedRun it;
    private Topology topology;
    private MongoRepositories mongo;
    private SearchEngine search;

    @BeforeEach
    void configure() throws IOException {
        it = new ScopedRun(JobsJar.path(), "--topology=" + PUBLISHED);
        topology = TopologyFile.load(PUBLISHED);
        mongo = new MongoRepositories(it.pipeline.repositoryDatabases(), MongoClients::create);
        search = SearchEngines.open(it.pipeline.search);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (String repository : topology.repositories()) {
            it.stores.reset(repository);
        }
        mongo.close();
        search.close();
        it.close();
    }

    @Test
    void everyRuleRoutesItsDocumentsAndAncestorsResolveAcrossRepositories() throws Exception {
        it.submit(Step.IMPORT, it.args("--group-id", "it-import-" + it.run), null);
        // The live repositories' files' text read by an index job of its own, in a group of its own.
        it.submit(Step.INDEX, it.args("--index-group-id", "it-index-" + it.run, "--file-text", "none"), null);
        it.submit(Step.INDEX, it.args("--index-group-id", "it-file-text-" + it.run, "--file-text", "only"), null);
        it.generate(CUSTOMERS, STATEMENTS);

        Instant present = it.settings(CUSTOMERS, STATEMENTS).present();
        List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
        Map<String, String> repositoryOf = new HashMap<>();
        generated.forEach(document -> repositoryOf.put(document.getId(), topology.route(document, present)));
        Map<String, Long> expected = repositoryOf.values().stream()
                .collect(Collectors.groupingBy(repository -> repository, Collectors.counting()));
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(topology.repositories());

        for (String repository : topology.repositories()) {
            await("documents in MongoDB's " + repository, () -> collection(repository).countDocuments(),
                    expected.get(repository), Duration.ofMinutes(3));
        }
        for (String repository : topology.repositories()) {
            await("documents in Elasticsearch's " + repository, () -> it.stores.elasticsearchCount(repository),
                    expected.get(repository), Duration.ofMinutes(3));
        }
        assertThat(it.deadLetters()).isZero();
        // ACLs travel with the documents: each repository's stored effective ACLs are what a walk over the ancestors'
        // own ACLs gives, across repositories (an archived statement's account and customer are in a live one).
        List<MongoCollection<Document>> collections = topology.repositories().stream().map(this::collection).toList();
        BruteForceAcls acls = BruteForceAcls.over(collections);
        for (MongoCollection<Document> collection : collections) {
            assertThat(acls.mismatches(collection.find())).as("stored ACLs not the brute-force ones").isEmpty();
        }
        // The archive's index has an alias of its own: written and read under it, and under nothing else.
        assertThat(it.pipeline.indices().of("archives")).isEqualTo(it.pipeline.indexPrefix.prefix + "statements-archive");
        assertThat(indexExists(it.pipeline.indices().of("archives"))).isTrue();
        assertThat(indexExists(it.pipeline.indexPrefix.prefix + "archives")).isFalse();
        // The archive has a MongoDB deployment of its own; the live repositories are in the job's.
        String archiveServer = System.getProperty("volumizer.archive-mongodb.uri");
        try (MongoClient archive = MongoClients.create(archiveServer)) {
            assertThat(archive.getDatabase(it.pipeline.mongodb.database).getCollection("archives").countDocuments())
                    .isEqualTo(expected.get("archives"));
        }
        assertThat(it.mongo.getDatabase(it.pipeline.mongodb.database).listCollectionNames())
                .contains("us-east", "us-west").doesNotContain("archives");

        // Each rule: the root and the eastern states stay in us-east, the western ones go west, old statements archive.
        assertThat(stored("us-east", BankGenerator.ROOT_ID)).isNotNull();
        assertThat(stored("us-west", BankGenerator.stateId("CA"))).isNotNull();
        assertThat(stored("us-east", BankGenerator.stateId("NY"))).isNotNull();
        for (DocumentEvent document : generated) {
            if (document.getType().equals("Statement")) {
                boolean old = document.getProperties().get("period").toString()
                        .compareTo(it.settings(CUSTOMERS, STATEMENTS).lastPeriod().minusMonths(6).toString()) <= 0;
                assertThat(repositoryOf.get(document.getId()).equals("archives")).as(document.getId()).isEqualTo(old);
            }
        }
        Set<String> customerRepositories = generated.stream().filter(d -> d.getType().equals("CustomerFolder"))
                .map(d -> repositoryOf.get(d.getId())).collect(Collectors.toSet());
        assertThat(customerRepositories).containsExactlyInAnyOrder("us-east", "us-west");

        // An archived statement's ancestry runs through its account and customer in a live repository.
        for (String live : List.of("us-east", "us-west")) {
            DocumentEvent archived = generated.stream().filter(d -> repositoryOf.get(d.getId()).equals("archives"))
                    .filter(d -> repositoryOf.get(d.getParentId()).equals(live)).findFirst().orElseThrow();
            Document account = stored(live, archived.getParentId());
            Document statement = stored("archives", archived.getId());
            assertThat(statement).as(archived.getId()).isNotNull();
            List<String> accountAncestry = account.getList(DocumentFields.ANCESTOR_IDS, String.class);
            assertThat(statement.getList(DocumentFields.ANCESTOR_IDS, String.class))
                    .startsWith(accountAncestry.toArray(String[]::new)).contains(archived.getParentId());
            assertThat(statement.getString(DocumentFields.PATH)).startsWith(account.getString(DocumentFields.PATH) + "/");
        }

        // File text follows the metadata: every live statement and letter gets it, and MongoDB keeps it with the
        // document.
        Map<String, Long> withText = new HashMap<>();
        for (String live : List.of("us-east", "us-west")) {
            withText.put(live, generated.stream().filter(d -> repositoryOf.get(d.getId()).equals(live))
                    .filter(d -> FileText.readable(d.getBlob())).count());
            assertThat(withText.get(live)).isPositive();
            await("documents of " + live + " with their file's text indexed", () -> textIndexed(live),
                    withText.get(live), Duration.ofMinutes(3));
            assertThat(mongo.fileTexts(live).countDocuments()).isEqualTo(withText.get(live));
        }
        // A reindex (its files' text in a branch of its own) carries the text each document has: with a time budget
        // no file is read within, its new generation still has every text.
        String before = search.indices(it.pipeline.indices()).current("us-east").orElseThrow();
        it.runToEnd(Step.REINDEX, it.args("--repository", "us-east", "--command-id", "reindex-us-east-" + it.run,
                "--file-text-timeout", "PT0.001S"));
        assertThat(search.indices(it.pipeline.indices()).current("us-east")).isPresent().get().isNotEqualTo(before);
        await("texts in us-east's new generation", () -> textIndexed("us-east"), withText.get("us-east"),
                Duration.ofMinutes(1));
        // File text: a counterparty named only inside a statement's PDF finds the statement in its live repository;
        // the archive's profile indexes no file text.
        for (String repository : List.of("us-east", "archives")) {
            DocumentEvent statement = generated.stream().filter(d -> d.getType().equals("Statement"))
                    .filter(d -> repositoryOf.get(d.getId()).equals(repository)).findFirst().orElseThrow();
            String counterparty = counterparty(statement);
            List<SearchResult.Hit> hits = search(repository, "{\"match_phrase\":{\"" + DocumentFields.FILE_TEXT + "\":"
                    + JSON.writeValueAsString(counterparty) + "}}");
            assertThat(hits.stream().map(SearchResult.Hit::id).toList().contains(statement.getId()))
                    .as("%s found by '%s' in %s", statement.getId(), counterparty, repository)
                    .isEqualTo(!repository.equals("archives"));
        }

        // Archiving: a route command over each live repository moves the statements that have turned 6 months old
        // since the run's present (all of its live ones, by now) into the archive, and nothing else.
        Instant now = Instant.now();
        Map<String, String> repositoryNow = new HashMap<>();
        generated.forEach(document -> repositoryNow.put(document.getId(), topology.route(document, now)));
        List<DocumentEvent> aged = generated.stream()
                .filter(d -> !repositoryNow.get(d.getId()).equals(repositoryOf.get(d.getId()))).toList();
        assertThat(aged).isNotEmpty().allMatch(d -> d.getType().equals("Statement"));
        for (String live : List.of("us-east", "us-west")) {
            it.runToEnd(Step.BULK_UPDATE, it.args("--repository", live, "--command-id", "route-" + live + "-" + it.run,
                    "--action", "route", "--filter", "type=Statement"));
        }
        Map<String, Long> expectedNow = repositoryNow.values().stream()
                .collect(Collectors.groupingBy(repository -> repository, Collectors.counting()));
        for (String repository : topology.repositories()) {
            await("live documents in MongoDB's " + repository + " after archiving", () -> collection(repository)
                    .countDocuments(Filters.ne(DocumentFields.DELETED, true)), expectedNow.getOrDefault(repository, 0L),
                    Duration.ofMinutes(2));
        }
        for (String repository : topology.repositories()) {
            await("documents in Elasticsearch's " + repository + " after archiving", () -> it.stores.elasticsearchCount(repository),
                    expectedNow.getOrDefault(repository, 0L), Duration.ofMinutes(2));
        }
        assertThat(it.deadLetters()).isZero();
        DocumentEvent moved = aged.get(0);
        Document archivedNow = stored("archives", moved.getId());
        assertThat(archivedNow.getLong(DocumentFields.VERSION)).isEqualTo(moved.getVersion() + 1);
        assertThat(archivedNow.getList(DocumentFields.ANCESTOR_IDS, String.class)).contains(moved.getParentId());
        assertThat(MongoDocumentStore.isTombstone(stored(repositoryOf.get(moved.getId()), moved.getId())))
                .as("left a tombstone in its live repository").isTrue();
    }

    /** A counterparty of the statement's operations: words its PDF holds and its metadata does not. */
    private String counterparty(DocumentEvent statement) {
        return it.counterparties(statement, CUSTOMERS, STATEMENTS).get(0);
    }

    /** The first 100 documents of a repository's index that {@code query} finds, once everything written is searchable. */
    private List<SearchResult.Hit> search(String repository, String query) throws IOException {
        String alias = it.pipeline.indices().of(repository);
        search.indices(it.pipeline.indices()).refresh(alias);
        return search.reader().search(List.of(alias), SearchQuery.of((ObjectNode) JSON.readTree(query)).withSize(100)
                .withFields(List.of())).hits();
    }

    private long textIndexed(String repository) throws IOException {
        return it.stores.searchableFileTexts(it.pipeline.indices(), repository);
    }

    private boolean indexExists(String indexOrAlias) throws IOException {
        return search.indices(it.pipeline.indices()).exists(indexOrAlias);
    }

    private MongoCollection<Document> collection(String repository) {
        return mongo.collection(repository);
    }

    private Document stored(String repository, String id) {
        return collection(repository).find(Filters.eq(DocumentFields.KEY, id)).first();
    }
}
