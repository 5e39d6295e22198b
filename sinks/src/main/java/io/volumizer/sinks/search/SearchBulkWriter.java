package io.volumizer.sinks.search;

import java.util.List;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.bulk.BulkWriter;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.search.SearchWriter;

/**
 * Indexes imported documents in the search engine, each into its repository's index (its alias) or, for a reindex,
 * all into one new generation; a failed one is dead-lettered as its imported event.
 */
final class SearchBulkWriter implements BulkWriter<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final SearchConnection search;
    private final Backoff backoff;
    private final AvroCodec<ImportedEvent> importedCodec;
    /** The generation a reindex fills, or null: each document's repository alias. */
    private final String generation;
    private transient SearchWriter writer;

    /** @param generation the concrete index a reindex fills before the alias moves, or null: each repository's alias */
    SearchBulkWriter(SearchConnection search, Backoff backoff, AvroCodec<ImportedEvent> importedCodec,
            String generation) {
        this.search = search;
        this.backoff = backoff;
        this.importedCodec = importedCodec;
        this.generation = generation;
    }

    @Override
    public void open(RuntimeContext context) {
        SearchWriter aliases = search.indices().writer(backoff);
        writer = generation == null ? aliases : aliases.into(generation);
    }

    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        return writer.write(batch);
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
    public void close() {
        search.close();
    }
}
