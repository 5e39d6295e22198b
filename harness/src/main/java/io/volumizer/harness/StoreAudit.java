package io.volumizer.harness;

import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.io.IOException;
import java.util.ArrayList;

import io.volumizer.ops.stores.Stores;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Projections;

import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * What a store holds against what was generated, document by document, read through the official clients (never
 * a job metric): how many are there, missing, extra (an id nobody generated, or found twice), or at another version.
 */
public final class StoreAudit {

    /** The audit of one store. */
    public record Findings(long found, long missing, long extra, long otherVersion) {

        public boolean exact() {
            return missing == 0 && extra == 0 && otherVersion == 0;
        }
    }

    private StoreAudit() {
    }

    /** Every document of the collection, by id and version. */
    public static Findings mongo(MongoCollection<Document> collection, Map<String, Long> expected) {
        Tally tally = new Tally(expected);
        for (Document document : collection.find().projection(Projections.include(KEY, VERSION)).batchSize(5_000)) {
            tally.saw(document.getString(KEY), document.getLong(VERSION));
        }
        return tally.findings();
    }

    /** Every document of the repository's index, by id and the version its source holds, through a scan. */
    public static Findings index(SearchEngine search, IndexNames names, String repository, Map<String, Long> expected)
            throws IOException {
        String alias = names.of(repository);
        search.indices(names).refresh(alias);
        Tally tally = new Tally(expected);
        ScanRequest all = new ScanRequest(null, 0, 1, 5_000, Duration.ofMinutes(1), List.of(VERSION), null, null);
        try (SearchReader.Scan scan = search.reader().scan(alias, all)) {
            for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                for (SearchResult.Hit hit : page) {
                    tally.saw(hit.id(), hit.source().path(VERSION).asLong());
                }
            }
        }
        return tally.findings();
    }

    /** Counts what a store returned against the expected id → version. */
    private static final class Tally {
        private final Map<String, Long> expected;
        private final Set<String> seen = new HashSet<>();
        private long extra;
        private long otherVersion;

        Tally(Map<String, Long> expected) {
            this.expected = expected;
        }

        void saw(String id, long version) {
            Long wanted = expected.get(id);
            if (wanted == null || !seen.add(id)) {
                extra++;
            } else if (wanted != version) {
                otherVersion++;
            }
        }

        Findings findings() {
            return new Findings(seen.size() + extra, expected.size() - seen.size(), extra, otherVersion);
        }
    }

    /** The imported topic: its committed records, and how many documents they are about. */
    public record ImportedTopic(long records, long documents) {
    }

    /** The imported topic (separate jobs), written exactly once: each document once, however often replayed. */
    public static ImportedTopic importedTopic(Stores stores, PipelineOptions options) {
        AvroCodec<ImportedEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                AvroCodec.valueSubject(options.importedTopic()), ImportedEvent.class);
        Set<String> ids = new HashSet<>();
        long[] records = {0};
        stores.readCommitted(options.importedTopic(), bytes -> {
            records[0]++;
            ids.add(codec.decode(bytes).getDocument().getId());
        });
        return new ImportedTopic(records[0], ids.size());
    }

    public static List<DeadLetter> deadLetters(Stores stores, PipelineOptions options) {
        AvroCodec<DeadLetter> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                AvroCodec.valueSubject(options.deadletterTopic()), DeadLetter.class);
        List<DeadLetter> letters = new ArrayList<>();
        stores.readCommitted(options.deadletterTopic(), bytes -> letters.add(codec.decode(bytes)));
        return letters;
    }
}
