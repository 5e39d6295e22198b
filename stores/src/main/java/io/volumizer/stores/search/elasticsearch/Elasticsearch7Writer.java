package io.volumizer.stores.search.elasticsearch;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.FILE_TEXT;
import static io.volumizer.stores.DocumentFields.FILE_TEXT_INDEXED;
import static io.volumizer.stores.DocumentFields.FULLTEXT;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PATH;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.READ_ACL;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;
import static io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine.JSON;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NByteArrayEntity;
import org.elasticsearch.client.Request;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.StoreUnavailableException;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchWriter;

/**
 * Writes with the {@code _bulk} API, each document into its repository's alias ({@link Elasticsearch7Indices}, made
 * on first use) or all into one generation, routed by its repository's layout. Versions are external
 * ({@code external_gte}, as {@link EngineVersions} keeps them): an older event answers 409, reported stale. Which
 * items are retried, stale or failed: {@link #outcome}.
 */
final class Elasticsearch7Writer implements SearchWriter {

    private static final ContentType NDJSON = ContentType.create("application/x-ndjson", StandardCharsets.UTF_8);

    private final Elasticsearch7Indices indices;
    private final Backoff backoff;
    /** Where every document goes instead of its repository's alias: the new generation a reindex fills, or null. */
    private final String generation;
    private final Set<String> ensured = ConcurrentHashMap.newKeySet();

    Elasticsearch7Writer(Elasticsearch7Indices indices, Backoff backoff, String generation) {
        this.indices = indices;
        this.backoff = backoff;
        this.generation = generation;
    }

    @Override
    public SearchWriter into(String generation) {
        return new Elasticsearch7Writer(indices, backoff, generation);
    }

    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        BulkResult<ImportedEvent> result = new BulkResult<>();
        List<ImportedEvent> pending = batch;
        SearchException lastFailure = null;
        for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt > 0) {
                if (attempt > backoff.maxRetries()) {
                    throw new StoreUnavailableException("Elasticsearch still rejecting " + pending.size()
                            + " documents after " + backoff.maxRetries() + " retries"
                            + (lastFailure == null ? " (429 / rejected execution)" : ": " + lastFailure.getMessage()),
                            lastFailure);
                }
                result.retried();
                backoff.sleep(attempt);
            }
            JsonNode answer;
            try {
                ensureIndices(pending);
                answer = bulk(pending);
            } catch (SearchException e) {
                lastFailure = e;
                if (e.isServiceFault()) {
                    continue; // the whole request is retried
                }
                if (e.kind() == SearchException.Kind.TOO_LARGE) {
                    result.addAll(writeInHalves(pending, e));
                    return result;
                }
                throw new StoreUnavailableException("Elasticsearch refused a bulk request: " + e.getMessage(), e);
            }
            List<ImportedEvent> retry = new ArrayList<>();
            ArrayNode items = (ArrayNode) answer.path("items");
            for (int i = 0; i < pending.size(); i++) {
                JsonNode item = items.get(i).elements().next();
                ImportedEvent event = pending.get(i);
                JsonNode error = item.path("error");
                switch (outcome(item.path("status").asInt(), error.path("type").asText(),
                        event.getDocument().getOperation() == Operation.DELETE)) {
                    case WRITTEN -> result.written(event);
                    case STALE -> result.stale(event);
                    case RETRY -> retry.add(event);
                    case FAILED -> result.failed(event, ReasonClass.REFUSED_BY_STORE, "Elasticsearch "
                            + item.path("status").asInt() + " " + error.path("type").asText() + ": "
                            + error.path("reason").asText());
                }
            }
            pending = retry;
        }
        return result;
    }

    /**
     * A request over the engine's size limit ({@code http.max_content_length}), whatever the batch's estimate said:
     * its halves are written apart, down to a document alone, which is then the document's own fault.
     */
    private BulkResult<ImportedEvent> writeInHalves(List<ImportedEvent> batch, SearchException tooLarge) {
        if (batch.size() == 1) {
            BulkResult<ImportedEvent> alone = new BulkResult<>();
            alone.failed(batch.get(0), ReasonClass.TOO_LARGE, "Elasticsearch refused the document alone as too large: "
                    + tooLarge.reason());
            return alone;
        }
        int half = batch.size() / 2;
        BulkResult<ImportedEvent> halves = write(batch.subList(0, half));
        halves.addAll(write(batch.subList(half, batch.size())));
        return halves;
    }

    /**
     * Each repository of the batch has its index (alias and generation) before its first write: a write to an alias
     * nobody made would make Elasticsearch create a plain index of that name.
     */
    private void ensureIndices(List<ImportedEvent> batch) throws SearchException {
        if (generation != null) {
            return;
        }
        for (ImportedEvent event : batch) {
            String repository = event.getDocument().getRepository();
            if (!ensured.contains(repository)) {
                indices.ensure(repository);
                ensured.add(repository);
            }
        }
    }

    /** What became of one item of a bulk request. */
    enum Outcome { WRITTEN, STALE, RETRY, FAILED }

    /**
     * An item's outcome from its status and error type. Overload (429, rejected execution), a shard or node not
     * available (5xx) and a cluster block (say, a disk watermark) are the cluster's state of the moment: retried,
     * never dead-lettered. 409 is a version conflict: the index holds this version or a newer one. Any other failure
     * is the document's own (a value that does not fit the mapping, say).
     */
    static Outcome outcome(int status, String errorType, boolean delete) {
        if (status / 100 == 2 || (status == 404 && delete)) {
            return Outcome.WRITTEN;
        }
        if (status == 409) {
            return Outcome.STALE;
        }
        if (status == 429 || status >= 500 || errorType.contains("rejected_execution")
                || errorType.equals("cluster_block_exception")) {
            return Outcome.RETRY;
        }
        return Outcome.FAILED;
    }

    private JsonNode bulk(List<ImportedEvent> events) throws SearchException {
        Request request = new Request("POST", "/_bulk");
        // Only what an item's outcome is decided on: a full answer repeats index, id, version, shards and sequence
        // numbers for every item, which Elasticsearch writes and this client parses on the cores they share.
        request.addParameter("filter_path", "items.*.status,items.*.error.type,items.*.error.reason");
        request.setEntity(new NByteArrayEntity(bulkBody(events), NDJSON));
        return indices.engine().read(request);
    }

    /** The NDJSON request, streamed straight into bytes (no JSON tree, no intermediate string per document). */
    byte[] bulkBody(List<ImportedEvent> events) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(events.size() * 1024);
        try (JsonGenerator json = JSON.getFactory().createGenerator(body)) {
            json.setRootValueSeparator(null);
            for (ImportedEvent event : events) {
                DocumentEvent document = event.getDocument();
                json.writeStartObject();
                json.writeObjectFieldStart(document.getOperation() == Operation.DELETE ? "delete" : "index");
                json.writeStringField("_index", generation != null ? generation : indices.names().of(document.getRepository()));
                json.writeStringField("_id", document.getId());
                IndexLayout layout = indices.layout(document.getRepository());
                String routing = layout.routingOf(document);
                if (routing != null) {
                    json.writeStringField("routing", routing);
                }
                json.writeNumberField("version", EngineVersions.of(document.getVersion(), withFileText(event, layout.profile())));
                json.writeStringField("version_type", "external_gte");
                json.writeEndObject();
                json.writeEndObject();
                json.writeRaw('\n');
                if (document.getOperation() != Operation.DELETE) {
                    writeDocument(json, event, layout.profile());
                    json.writeRaw('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // into memory: cannot happen
        }
        return body.toByteArray();
    }

    /** Whether the event is the form of its document with its file's text: only a live repository indexes it. */
    private static boolean withFileText(ImportedEvent event, IndexProfile profile) {
        return profile == IndexProfile.LIVE && event.getFileText() != null;
    }

    /**
     * The indexed form ({@link DocumentFields}): metadata, ancestry, who may read it (the import's effective ACL, in
     * every profile: searches filter by it), typed properties, a fulltext field of every text value (but in an
     * archive), the file's text (in a live repository, once extracted) and whether it is in, and the bulk command
     * whose change this version is, for the command's count of documents indexed.
     */
    private static void writeDocument(JsonGenerator json, ImportedEvent event, IndexProfile profile) throws IOException {
        DocumentEvent document = event.getDocument();
        json.writeStartObject();
        json.writeStringField(ID, document.getId());
        json.writeStringField(REPOSITORY, document.getRepository());
        json.writeStringField(PARENT_ID, document.getParentId());
        json.writeStringField(PATH, event.getPath());
        json.writeStringField(TYPE, document.getType());
        json.writeStringField(NAME, document.getName());
        json.writeStringField(TITLE, document.getTitle());
        json.writeStringField(CREATED, document.getCreated().toString());
        json.writeStringField(MODIFIED, document.getModified().toString());
        json.writeNumberField(VERSION, document.getVersion());
        writeStrings(json, ANCESTOR_IDS, event.getAncestorIds());
        if (event.getEffectiveAcl() != null) {
            writeStrings(json, READ_ACL, event.getEffectiveAcl().getRead());
        }
        StringBuilder fulltext = new StringBuilder(document.getTitle());
        json.writeObjectFieldStart(PROPERTIES);
        for (Map.Entry<String, Object> property : document.getProperties().entrySet()) {
            Object value = property.getValue();
            if (value instanceof String text) {
                json.writeStringField(property.getKey(), text);
                fulltext.append(' ').append(text);
            } else if (value instanceof Long number) {
                json.writeNumberField(property.getKey(), number);
            } else if (value instanceof Double number) {
                json.writeNumberField(property.getKey(), number);
            } else if (value instanceof Boolean flag) {
                json.writeBooleanField(property.getKey(), flag);
            }
        }
        json.writeEndObject();
        if (profile != IndexProfile.ARCHIVE) {
            json.writeStringField(FULLTEXT, fulltext.toString());
        }
        if (withFileText(event, profile)) {
            json.writeStringField(FILE_TEXT, event.getFileText());
        }
        if (profile == IndexProfile.LIVE && document.getBlob() != null) {
            json.writeBooleanField(FILE_TEXT_INDEXED, withFileText(event, profile));
        }
        if (document.getBlob() != null) {
            json.writeObjectFieldStart(BLOB);
            json.writeStringField(DocumentFields.Blob.MIME_TYPE, document.getBlob().getMimeType());
            json.writeStringField(DocumentFields.Blob.FILENAME, document.getBlob().getFilename());
            json.writeStringField(DocumentFields.Blob.KEY, document.getBlob().getKey());
            json.writeEndObject();
        }
        if (document.getOrigin() != null && document.getOrigin().getCommand() != null) {
            json.writeObjectFieldStart(DocumentFields.ORIGIN);
            json.writeStringField(DocumentFields.Origin.COMMAND, document.getOrigin().getCommand());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void writeStrings(JsonGenerator json, String name, List<String> values) throws IOException {
        json.writeArrayFieldStart(name);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }
}
