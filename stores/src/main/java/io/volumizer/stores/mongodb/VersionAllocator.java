package io.volumizer.stores.mongodb;

import java.time.Clock;
import java.time.Instant;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;

import io.volumizer.stores.DocumentFields;

/**
 * Versions of the writes made beside the import (the API's), allocated by MongoDB: one counter per repository, in
 * its database, that every replica of the API increments. A version is above the document's stored one and the
 * writer's clock in microseconds (so it stays above the versions of generated and imported documents, which are
 * times too), and above every version allocated before it, whichever replica did, whatever its clock says: a write
 * acknowledged later never loses to an earlier one as stale. Two round trips per write: a user's, not the import's.
 */
public record VersionAllocator(MongoRepositories repositories, Clock clock) {

    /** The counters: a name no repository can have (theirs start with a letter or digit). */
    public static final String COLLECTION = "_volumizer_versions";
    private static final String LAST = "last";

    /** The next version of a document of {@code repository} whose stored version is {@code currentVersion} (0: none). */
    public long next(String repository, long currentVersion) {
        Instant now = clock.instant();
        long floor = Math.max(currentVersion + 1, now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000);
        MongoCollection<Document> counters = repositories.database(repository).getCollection(COLLECTION);
        counters.updateOne(Filters.eq(DocumentFields.KEY, repository), Updates.max(LAST, floor - 1),
                new UpdateOptions().upsert(true));
        Document counter = counters.findOneAndUpdate(Filters.eq(DocumentFields.KEY, repository), Updates.inc(LAST, 1L),
                new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
        return counter.get(LAST, Number.class).longValue();
    }
}
