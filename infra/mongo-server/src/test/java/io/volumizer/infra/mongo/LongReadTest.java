package io.volumizer.infra.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.bson.Document;

/**
 * A read of a whole collection (an aggregation's scan) outlasting the store's retention of old chunks, while
 * another client rewrites the collection: the read finishes on the version it began with.
 */
class LongReadTest {

    private static final int DOCUMENTS = 5_000;

    @TempDir
    Path folder;

    @Test
    void aScanReadsEveryDocumentOfItsVersionWhileTheCollectionIsRewrittenUnderIt() {
        // No retention and a tiny cache: a freed chunk is reused at the next commit, and the scan reads from the file.
        MVStore store = new MVStore.Builder().fileName(folder.resolve("repository.mv.db").toString()).cacheSize(1)
                .autoCommitDisabled().open();
        store.setRetentionTime(0);
        store.setVersionsToKeep(0);
        ComparableKeyH2Backend backend = new ComparableKeyH2Backend(store);
        try {
            MongoCollection<?> documents = backend.resolveDatabase("bank").createCollectionOrThrowIfExists("documents");
            documents.insertDocuments(IntStream.range(0, DOCUMENTS).mapToObj(i -> document(i, "first")).toList());
            store.commit();

            long read;
            try (Stream<Document> scan = documents.queryAllAsStream()) {
                Iterator<Document> each = scan.iterator();
                assertThat(each.next().get("version")).isEqualTo("first");
                read = 1;
                for (int round = 0; round < 5; round++) {
                    documents.deleteDocuments(new Document(), 0);
                    documents.insertDocuments(IntStream.range(0, DOCUMENTS).mapToObj(i -> document(i, "later"))
                            .toList());
                    store.commit();
                    store.compact(100, Integer.MAX_VALUE);
                }
                while (each.hasNext()) {
                    assertThat(each.next().get("version")).isEqualTo("first");
                    read++;
                }
            }
            assertThat(read).isEqualTo(DOCUMENTS);
        } finally {
            backend.close();
        }
    }

    private static Document document(int i, String version) {
        return new Document("_id", "d" + i).append("version", version).append("text", List.of("x".repeat(500), i));
    }
}
