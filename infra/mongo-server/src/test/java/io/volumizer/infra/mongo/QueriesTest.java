package io.volumizer.infra.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.bson.Document;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;

import de.bwaldvogel.mongo.MongoServer;

/** Queries the stand-in serves its own way (id ranges from the index, aggregations streamed) answer as a real server does. */
class QueriesTest {

    @TempDir
    Path folder;

    private ComparableKeyH2Backend backend;
    private MongoServer server;
    private MongoClient client;
    private MongoCollection<Document> documents;

    @BeforeEach
    void start() {
        backend = new ComparableKeyH2Backend(MVStore.open(folder.resolve("repository.mv.db").toString()));
        server = new MongoServer(backend);
        InetSocketAddress address = server.bind();
        client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort());
        documents = client.getDatabase("bank").getCollection("documents");
        // Inserted out of order, with a number among them: order is by BSON type first, then by value.
        for (String id : List.of("d-07", "a-01", "c-05", "b-03", "a-02", "c-06", "b-04", "d-08")) {
            documents.insertOne(new Document("_id", id).append("kind", id.substring(0, 1)));
        }
        documents.insertOne(new Document("_id", 42).append("kind", "number"));
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdown();
        backend.close();
    }

    @Test
    void aHalfOpenRangeAnswersItsIdsInOrder() {
        assertThat(ids(Filters.and(Filters.gte("_id", "b-03"), Filters.lt("_id", "c-06"))))
                .containsExactly("b-03", "b-04", "c-05");
        assertThat(ids(Filters.and(Filters.gt("_id", "b-03"), Filters.lte("_id", "c-06"))))
                .containsExactly("b-04", "c-05", "c-06");
        assertThat(ids(Filters.gt("_id", "c-06"))).containsExactly("d-07", "d-08");
        assertThat(ids(Filters.lt("_id", "a-02"))).containsExactly("a-01");
        assertThat(ids(Filters.gt("_id", "z"))).isEmpty();
    }

    @Test
    void everyDocumentSortedByIdComesInBsonOrder() {
        assertThat(ids(Filters.empty())).containsExactly(42, "a-01", "a-02", "b-03", "b-04", "c-05", "c-06", "d-07", "d-08");
    }

    @Test
    void skipAndLimitCountFromTheStartOfTheRange() {
        List<Object> tenth = documents.find(Filters.gte("_id", "a-02")).sort(Sorts.ascending("_id")).skip(3).limit(1)
                .projection(Projections.include("_id")).map(document -> document.get("_id")).into(new ArrayList<>());
        assertThat(tenth).containsExactly("c-05");
    }

    @Test
    void otherQueriesAndSortsAreAnsweredAsBefore() {
        assertThat(documents.find(Filters.eq("_id", "c-05")).first()).containsEntry("kind", "c");
        assertThat(documents.find(Filters.and(Filters.gte("_id", "b"), Filters.eq("kind", "c"))).sort(Sorts.ascending("_id"))
                .map(document -> document.get("_id")).into(new ArrayList<>())).containsExactly("c-05", "c-06");
        assertThat(documents.find(Filters.lt("_id", "b")).sort(Sorts.descending("_id"))
                .map(document -> document.get("_id")).into(new ArrayList<>())).containsExactly("a-02", "a-01"); // a string bound matches strings only
        assertThat(documents.countDocuments(Filters.and(Filters.gte("_id", "b"), Filters.lt("_id", "d")))).isEqualTo(4);
    }

    @Test
    void aggregationsReadEveryDocument() {
        assertThat(documents.countDocuments()).isEqualTo(9);
        assertThat(documents.countDocuments(Filters.eq("kind", "b"))).isEqualTo(2);
        assertThat(documents.aggregate(List.of(com.mongodb.client.model.Aggregates.group("$kind",
                com.mongodb.client.model.Accumulators.sum("n", 1)))).into(new ArrayList<>())).hasSize(5);
    }

    private List<Object> ids(org.bson.conversions.Bson filter) {
        return documents.find(filter).sort(Sorts.ascending("_id")).batchSize(2).map(document -> document.get("_id"))
                .into(new ArrayList<>());
    }

    @Test
    void oneParentsChildrenComeFromTheCompoundIndexByNameWithALimitAndEveryOtherConditionApplied() {
        MongoCollection<Document> tree = client.getDatabase("bank").getCollection("tree");
        tree.createIndex(Indexes.ascending("parentId", "name"), new IndexOptions().unique(true));
        for (String child : List.of("p2/b", "p1/c", "p1/a", "p2/a", "p1/e", "p1/b", "p1/d", "p3/a")) {
            String[] parts = child.split("/");
            tree.insertOne(new Document("_id", child).append("parentId", parts[0]).append("name", parts[1])
                    .append("deleted", child.equals("p1/b")));
        }

        assertThat(names(tree.find(Filters.eq("parentId", "p1")).sort(Sorts.ascending("name")).limit(3)))
                .containsExactly("a", "b", "c");
        assertThat(names(tree.find(Filters.and(Filters.eq("parentId", "p1"), Filters.eq("deleted", false)))
                .sort(Sorts.ascending("name")))).containsExactly("a", "c", "d", "e");
        assertThat(names(tree.find(Filters.eq("parentId", "p1")).sort(Sorts.descending("name")).limit(2)))
                .containsExactly("e", "d");
        assertThat(names(tree.find(Filters.eq("parentId", "p2")))).containsExactlyInAnyOrder("a", "b");
        assertThat(names(tree.find(Filters.eq("parentId", "p0")).sort(Sorts.ascending("name")))).isEmpty();
        assertThat(names(tree.find(Filters.in("parentId", "p2", "p3")).sort(Sorts.ascending("name"))))
                .containsExactly("a", "a", "b");
    }

    private static List<String> names(FindIterable<Document> found) {
        return found.map(document -> document.getString("name")).into(new ArrayList<>());
    }
}
