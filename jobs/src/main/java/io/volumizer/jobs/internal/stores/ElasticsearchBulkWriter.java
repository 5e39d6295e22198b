package io.volumizer.jobs.internal.stores;

import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.http.HttpHost;
import org.elasticsearch.client.RestClient;

import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.elasticsearch.ElasticsearchDocumentStore;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;

/**
 * Indexes imported documents in Elasticsearch, each into its repository's index (its alias) or, for a reindex,
 * all into one new generation; a failed one is dead-lettered as its imported event.
 */
public final class ElasticsearchBulkWriter implements BulkWriter<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final String url;
    private final IndexNames indices;
    private final Map<String, IndexLayout> layouts;
    private final Backoff backoff;
    private final AvroCodec<ImportedEvent> importedCodec;
    /** The generation a reindex fills, or null: each document's repository alias. */
    private final String generation;
    private transient RestClient client;
    private transient ElasticsearchDocumentStore store;

    /**
     * @param url     Elasticsearch
     * @param indices the repositories' index names
     * @param layouts each repository's index layout (shards, routing); a repository not in it has the template's
     */
    public ElasticsearchBulkWriter(String url, IndexNames indices, Map<String, IndexLayout> layouts, Backoff backoff,
            AvroCodec<ImportedEvent> importedCodec) {
        this(url, indices, layouts, backoff, importedCodec, null);
    }

    private ElasticsearchBulkWriter(String url, IndexNames indices, Map<String, IndexLayout> layouts, Backoff backoff,
            AvroCodec<ImportedEvent> importedCodec, String generation) {
        this.url = url;
        this.indices = indices;
        this.layouts = Map.copyOf(layouts);
        this.backoff = backoff;
        this.importedCodec = importedCodec;
        this.generation = generation;
    }

    /** Writes every document into {@code generation}, a concrete index a reindex fills before the alias moves. */
    public static ElasticsearchBulkWriter intoGeneration(String url, IndexNames indices, Map<String, IndexLayout> layouts,
            Backoff backoff, AvroCodec<ImportedEvent> importedCodec, String generation) {
        return new ElasticsearchBulkWriter(url, indices, layouts, backoff, importedCodec, generation);
    }

    /** Installs the index template before any index is created (from the job client, once). */
    public void ensureTemplate() throws java.io.IOException {
        try (RestClient oneOff = RestClient.builder(HttpHost.create(url)).build()) {
            new ElasticsearchDocumentStore(oneOff, indices, backoff).ensureTemplate();
        }
    }

    @Override
    public void open(RuntimeContext context) {
        client = RestClient.builder(HttpHost.create(url)).build();
        store = generation == null ? new ElasticsearchDocumentStore(client, indices, layouts, backoff)
                : ElasticsearchDocumentStore.intoGeneration(client, indices, layouts, generation, backoff);
    }

    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        return store.write(batch);
    }

    @Override
    public byte[] payloadOf(ImportedEvent item) {
        return importedCodec.encode(item);
    }

    @Override
    public String idOf(ImportedEvent item) {
        return item.getDocument().getId();
    }

    @Override
    public void close() throws Exception {
        if (client != null) {
            client.close();
        }
    }
}
