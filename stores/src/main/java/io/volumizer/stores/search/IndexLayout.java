package io.volumizer.stores.search;

import java.io.Serializable;

import io.volumizer.schemas.event.DocumentEvent;

/**
 * How one repository's index is laid out over the repository template (each setting null keeps the template's),
 * and what it holds.
 *
 * @param shards          primary shards (fixed when a generation is made)
 * @param replicas        replicas of each shard
 * @param refreshInterval how often writes become searchable, as Elasticsearch writes it ({@code 1s}, {@code 30s})
 * @param codec           stored fields' compression: {@code default} or {@code best_compression}
 * @param routing         the property a document is routed to its shard by (property sharding: a query that
 *                        carries the value is sent to that shard alone); documents without it are routed by id
 * @param profile         what the index holds of each document
 */
public record IndexLayout(Integer shards, Integer replicas, String refreshInterval, String codec, String routing,
        IndexProfile profile) implements Serializable {

    public static final IndexLayout TEMPLATE = new IndexLayout(null, null, null, null, null, IndexProfile.METADATA);

    public IndexLayout {
        if (profile == null) {
            throw new IllegalArgumentException("an index layout has a profile");
        }
    }

    /** The shard routing value of a document: its routing property's value, or null to route it by id. */
    public String routingOf(DocumentEvent document) {
        if (routing == null) {
            return null;
        }
        Object value = document.getProperties().get(routing);
        return value == null ? null : value.toString();
    }
}
