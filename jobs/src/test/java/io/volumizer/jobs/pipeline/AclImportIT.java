package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.client.MongoCollection;

import io.volumizer.generators.BankPrincipals;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * The generator's ACL layout through generate → import → index on the local services: for every document, the
 * effective ACL MongoDB stores is what a brute-force walk over the stored documents' own ACLs gives
 * ({@link BruteForceAcls}), and Elasticsearch indexes the same readers.
 */
class AclImportIT {

    /** Enough accounts (about 300) for some of them to be restricted, at 1%. */
    private static final int CUSTOMERS = 150;
    private static final int STATEMENTS = 8;

    private ScopedRun it;
    private SearchEngine search;

    @BeforeEach
    void start() throws Exception {
        it = new ScopedRun(JobsJar.path());
        search = SearchEngines.open(it.pipeline.search);
    }

    @AfterEach
    void stop() throws Exception {
        search.close();
        it.close();
    }

    @Test
    void everyDocumentsStoredAndIndexedAclIsWhatItsAncestorsAclsGive() throws Exception {
        List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
        assertThat(generated).as("the layout has a restricted account and archived statements").anyMatch(document ->
                document.getType().equals("Account") && document.getAcl() != null)
                .anyMatch(document -> document.getType().equals("Statement") && document.getAcl() != null);
        it.submit(Step.IMPORT, it.args("--group-id", "it-import-" + it.run), null);
        it.submit(Step.INDEX, it.args("--index-group-id", "it-index-" + it.run), null);
        it.generate(CUSTOMERS, STATEMENTS);
        await("documents in MongoDB", it::mongoCount, generated.size(), Duration.ofMinutes(3));
        await("documents in Elasticsearch", it::elasticsearchCount, generated.size(), Duration.ofMinutes(3));
        assertThat(it.deadLetters()).isZero();

        MongoCollection<Document> collection = it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(it.repository);
        assertThat(BruteForceAcls.over(List.of(collection)).mismatches(collection.find()))
                .as("documents whose stored ACL is not the brute-force one").isEmpty();
        Map<String, Set<String>> storedReaders = new HashMap<>();
        for (Document stored : collection.find()) {
            storedReaders.put(stored.getString(DocumentFields.KEY), new TreeSet<>(stored.getList(DocumentFields.READ_ACL, String.class)));
        }
        assertThat(storedReaders).hasSize(generated.size());
        assertThat(indexedReaders()).as("Elasticsearch's readAcl is MongoDB's").isEqualTo(storedReaders);

        // The layout, as a reader sees it: a restricted account and an archived statement are theirs alone.
        DocumentEvent restricted = generated.stream().filter(d -> d.getType().equals("Account") && d.getAcl() != null)
                .findFirst().orElseThrow();
        DocumentEvent archived = generated.stream().filter(d -> d.getType().equals("Statement") && d.getAcl() != null)
                .findFirst().orElseThrow();
        assertThat(storedReaders.get(restricted.getId())).containsExactly(BankPrincipals.COMPLIANCE);
        assertThat(storedReaders.get(archived.getId())).containsExactly(BankPrincipals.AUDITORS);
        DocumentEvent customer = generated.stream().filter(d -> d.getType().equals("CustomerFolder")).findFirst().orElseThrow();
        assertThat(storedReaders.get(customer.getId())).containsExactlyInAnyOrder(Principals.ADMINISTRATORS,
                BankPrincipals.branch(customer.getProperties().get("state").toString()),
                BankPrincipals.customer(customer.getProperties().get("customerNumber").toString()));
    }

    /** Each indexed document's readAcl, by id. */
    private Map<String, Set<String>> indexedReaders() throws Exception {
        String alias = it.pipeline.indices().of(it.repository);
        search.indices(it.pipeline.indices()).refresh(alias);
        Map<String, Set<String>> readers = new HashMap<>();
        ScanRequest everything = new ScanRequest(null, 0, 1, 1000, Duration.ofMinutes(1), List.of(DocumentFields.READ_ACL), null, null);
        try (SearchReader.Scan scan = search.reader().scan(alias, everything)) {
            for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                for (SearchResult.Hit hit : page) {
                    Set<String> principals = new TreeSet<>();
                    for (JsonNode principal : hit.source().path(DocumentFields.READ_ACL)) {
                        principals.add(principal.asText());
                    }
                    readers.put(hit.id(), principals);
                }
            }
        }
        return readers;
    }
}
