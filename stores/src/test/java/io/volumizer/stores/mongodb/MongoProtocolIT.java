package io.volumizer.stores.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.WriteModel;

/** Against the local MongoDB-protocol server started by {@code bin/volumizer up}, through the official driver. */
class MongoProtocolIT {

    private MongoClient client;
    private MongoCollection<Document> documents;

    @BeforeEach
    void connect() {
        client = MongoClients.create(System.getProperty("volumizer.mongodb.uri"));
        documents = client.getDatabase("it_" + UUID.randomUUID().toString().replace("-", ""))
                .getCollection("documents");
    }

    @AfterEach
    void cleanUp() {
        documents.drop();
        client.close();
    }

    @Test
    void insertsAndReadsBack() {
        documents.insertOne(new Document("_id", "doc-1").append("name", "Crème").append("version", 1L));

        Document read = documents.find(Filters.eq("_id", "doc-1")).first();

        assertThat(read).isNotNull();
        assertThat(read.getString("name")).isEqualTo("Crème");
    }

    @Test
    void unorderedBulkUpsertIsIdempotent() {
        List<WriteModel<Document>> upserts = new ArrayList<>();
        IntStream.range(0, 500).forEach(i -> upserts.add(new ReplaceOneModel<>(Filters.eq("_id", "doc-" + i),
                new Document("_id", "doc-" + i).append("parentId", "p-" + i % 5).append("name", "n" + i),
                new ReplaceOptions().upsert(true))));

        var first = documents.bulkWrite(upserts, new BulkWriteOptions().ordered(false));
        var replay = documents.bulkWrite(upserts, new BulkWriteOptions().ordered(false));

        assertThat(first.getUpserts()).hasSize(500);
        assertThat(replay.getUpserts()).isEmpty();
        assertThat(replay.getMatchedCount()).isEqualTo(500);
        assertThat(documents.countDocuments()).isEqualTo(500);
    }

    @Test
    void findsByIndexedFieldWithSortAndLimit() {
        documents.createIndex(Indexes.ascending("parentId", "name"), new IndexOptions().unique(true));
        List<Document> children = new ArrayList<>();
        IntStream.range(0, 200).forEach(i -> children.add(
                new Document("_id", "c-" + i).append("parentId", i % 2 == 0 ? "even" : "odd").append("name",
                        String.format("child-%03d", 199 - i))));
        documents.insertMany(children);

        List<String> names = documents.find(Filters.and(Filters.eq("parentId", "even"), Filters.gt("name", "child-100")))
                .sort(Sorts.ascending("name")).limit(3).map(d -> d.getString("name")).into(new ArrayList<>());

        assertThat(names).containsExactly("child-101", "child-103", "child-105");
    }
}
