package io.volumizer.stores.mongodb;

import static io.volumizer.stores.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.testing.FaultyMongo;

/** The repository store against the local MongoDB-protocol server. */
class MongoDocumentStoreIT {

    private final String database = "it_" + UUID.randomUUID().toString().replace("-", "");
    private MongoClient client;
    private MongoDocumentStore store;

    @BeforeEach
    void connect() {
        client = MongoClients.create(System.getProperty("volumizer.mongodb.uri"));
        store = new MongoDocumentStore(MongoRepositories.sharing(client, database), Backoff.DEFAULT);
    }

    @AfterEach
    void cleanUp() {
        client.getDatabase(database).drop();
        client.close();
    }

    @Test
    void writesAreIdempotentAndMonotonicByVersion() {
        List<ImportedEvent> v2 = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            v2.add(imported("bank", "d-" + i, "p-" + i % 30, "n-" + i, 2, "Title " + i));
        }
        BulkResult<ImportedEvent> first = store.write(v2);
        BulkResult<ImportedEvent> replay = store.write(v2);
        BulkResult<ImportedEvent> older = store.write(List.of(imported("bank", "d-1", "p-1", "n-1", 1, "Old")));
        BulkResult<ImportedEvent> newer = store.write(List.of(imported("bank", "d-2", "p-2", "n-2", 3, "New")));

        assertThat(first.written()).hasSize(3000);
        assertThat(replay.written()).hasSize(3000);
        assertThat(store.collection("bank").countDocuments()).isEqualTo(3000);
        assertThat(older.stale()).hasSize(1);
        assertThat(store.collection("bank").find(Filters.eq("_id", "d-1")).first().getString("title")).isEqualTo("Title 1");
        assertThat(newer.written()).hasSize(1);
        Document replaced = store.collection("bank").find(Filters.eq("_id", "d-2")).first();
        assertThat(replaced.getString("title")).isEqualTo("New");
        assertThat(replaced.getLong("version")).isEqualTo(3);
    }

    /**
     * A file's text is kept apart from its document, with the version it was read for, and read back with the
     * document (a reindex): a text late for a newer version, or for a deleted document, is not kept, and a new version
     * starts without it.
     */
    @Test
    void aFilesTextIsStoredWithItsVersionAndReadBackWithTheDocumentButNeverOnANewerOne() {
        store.write(List.of(imported("bank", "kept", "p", "kept.pdf", 1, "Kept"),
                imported("bank", "changed", "p", "changed.pdf", 2, "Changed"),
                imported("bank", "gone", "p", "gone.pdf", 1, "Gone")));
        ImportedEvent deleted = imported("bank", "gone", "p", "gone.pdf", 2, "Gone");
        deleted.getDocument().setOperation(Operation.DELETE);
        store.write(List.of(deleted));

        List<ImportedEvent> current = store.storeFileTexts(List.of(
                withText(imported("bank", "kept", "p", "kept.pdf", 1, "Kept"), "January"),
                withText(imported("bank", "changed", "p", "changed.pdf", 1, "Changed"), "late"),
                withText(imported("bank", "gone", "p", "gone.pdf", 1, "Gone"), "late"),
                withText(imported("bank", "never", "p", "never.pdf", 1, "Never imported"), "late")));

        assertThat(current).as("the texts still of their document's version, to index")
                .extracting(e -> e.getDocument().getId()).containsExactly("kept");

        assertThat(readBack("kept").getFileText()).isEqualTo("January");
        assertThat(stored("kept")).as("the document itself, without its text").doesNotContainKey("fileText");
        assertThat(texts().find(Filters.eq("_id", "changed")).first()).as("a newer version's").isNull();
        assertThat(texts().find(Filters.eq("_id", "gone")).first()).as("a tombstone's").isNull();
        store.storeFileTexts(List.of(withText(imported("bank", "kept", "p", "kept.pdf", 1, "Kept"), "January")));
        store.write(List.of(imported("bank", "kept", "p", "kept.pdf", 1, "Kept")));
        assertThat(readBack("kept").getFileText()).as("stored again, its version replayed")
                .isEqualTo("January");
        store.write(List.of(imported("bank", "kept", "p", "kept.pdf", 3, "Kept again")));
        assertThat(readBack("kept").getFileText()).as("its next version's is to come")
                .isNull();
        // a text read from version 1 that lands on version 3, written between the check and the write, is not its own
        texts().replaceOne(Filters.eq("_id", "kept"), new Document("_id", "kept").append("version", 1L)
                .append("text", "January"));
        assertThat(readBack("kept").getFileText()).isNull();
    }

    private Document stored(String id) {
        return store.collection("bank").find(Filters.eq("_id", id)).first();
    }

    private MongoCollection<Document> texts() {
        return MongoRepositories.sharing(client, database).fileTexts("bank");
    }

    /** The stored document as a reindex reads it back, with its file's text. */
    private ImportedEvent readBack(String id) {
        Document stored = stored(id);
        return MongoDocumentStore.toImported(stored, MongoDocumentStore.fileTexts(texts(), List.of(stored)).get(id));
    }

    private static ImportedEvent withText(ImportedEvent event, String text) {
        event.setFileText(text);
        return event;
    }

    @Test
    void aBatchIsWrittenToEachRepositorysOwnDatabaseAndServer() {
        String sharedUri = System.getProperty("volumizer.mongodb.uri");
        String archiveUri = System.getProperty("volumizer.archive-mongodb.uri");
        RepositoryDatabases databases = RepositoryDatabases.of(new MongoLocation(sharedUri, database),
                Map.of("archives", new MongoLocation(archiveUri, database + "_archives")));
        try (MongoRepositories repositories = new MongoRepositories(databases, MongoClients::create);
                MongoClient archive = MongoClients.create(archiveUri)) {
            try {
                new MongoDocumentStore(repositories, Backoff.DEFAULT).write(List.of(imported("bank", "live", "p", "a.pdf", 1, "A"),
                        imported("archives", "old", "live", "b.pdf", 1, "B")));

                assertThat(archive.getDatabase(database + "_archives").getCollection("archives").countDocuments())
                        .as("on the archive's own server").isEqualTo(1);
                assertThat(client.getDatabase(database).getCollection("bank").countDocuments()).isEqualTo(1);
                assertThat(client.getDatabase(database).listCollectionNames()).as("nothing of the archive's in the shared")
                        .doesNotContain("archives");
            } finally {
                archive.getDatabase(database + "_archives").drop();
            }
        }
    }

    @Test
    void aBatchRetriedAfterAConnectionFailureReportsEachEventOnce() {
        store.write(List.of(imported("bank", "old", "p", "old.pdf", 1, "Old")));
        MongoDocumentStore retrying = new MongoDocumentStore(MongoRepositories.sharing(FaultyMongo.failing(client, "replaceOne", 1), database),
                new Backoff(Duration.ZERO, Duration.ZERO, 2));
        ImportedEvent fresh = imported("bank", "new", "p", "new.pdf", 1, "New");
        ImportedEvent newerVersion = imported("bank", "old", "p", "old.pdf", 2, "Old, revised");

        // The first attempt inserts the fresh document, then loses its connection replacing the older one.
        BulkResult<ImportedEvent> result = retrying.write(List.of(fresh, newerVersion));

        assertThat(result.written()).containsExactlyInAnyOrder(fresh, newerVersion);
        assertThat(result.stale()).isEmpty();
        assertThat(result.retries()).as("retries, for the stage's metric").isEqualTo(1);
        assertThat(store.collection("bank").find(Filters.eq("_id", "old")).first().getLong("version")).isEqualTo(2);
    }

    @Test
    void aReplayIsWrittenAndPassedOnWhicheverUniqueIndexTheServerNamesForIt() {
        List<ImportedEvent> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            batch.add(imported("bank", "d-" + i, "p-" + i % 5, "n-" + i, 1, "Title " + i));
        }
        store.write(batch);
        MongoDocumentStore namingChildren = new MongoDocumentStore(
                MongoRepositories.sharing(FaultyMongo.namingIndex(client, "children"), database), Backoff.DEFAULT);

        BulkResult<ImportedEvent> replay = namingChildren.write(batch);

        assertThat(replay.failed()).as("dead letters").isEmpty();
        assertThat(replay.written()).as("passed on downstream").hasSize(500);
        assertThat(store.collection("bank").countDocuments()).isEqualTo(500);
    }

    @Test
    void aSecondDocumentWithTheSameNameUnderOneParentFailsWithTheReason() {
        BulkResult<ImportedEvent> result = store.write(List.of(imported("bank", "a", "p", "same.pdf", 1, "A"),
                imported("bank", "b", "p", "same.pdf", 1, "B")));

        assertThat(result.written()).hasSize(1);
        assertThat(result.failed()).singleElement().satisfies(f -> assertThat(f.reason())
                .contains("another document named 'same.pdf' already exists under parent p: document a"));
    }

    @Test
    void ancestryOfAStoredDocumentIncludesItselfAndItsEffectiveAcl() {
        EffectiveAcl acl = new EffectiveAcl(List.of("branch-CA", "customer-1"), List.of("branch-CA"), List.of());
        ImportedEvent child = imported("bank", "child", "parent", "c.pdf", 1, "C");
        child.setEffectiveAcl(acl);
        store.write(List.of(child, imported("bank", "old", "parent", "o.pdf", 1, "O")));

        Ancestry ancestry = store.ancestry("bank", "child").orElseThrow();

        assertThat(ancestry.ids()).containsExactly("root", "parent", "child");
        assertThat(ancestry.path()).isEqualTo("/bank/parent/c.pdf");
        assertThat(ancestry.acl()).isEqualTo(acl);
        assertThat(store.ancestry("bank", "old").orElseThrow().acl()).as("stored before ACLs").isNull();
        assertThat(store.ancestry("bank", "missing")).isEmpty();
    }
}
