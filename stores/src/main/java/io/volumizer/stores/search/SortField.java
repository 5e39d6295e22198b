package io.volumizer.stores.search;

/** An order of hits: by a field, or by relevance ({@link #relevance()}, whose field is null). */
public record SortField(String field, boolean descending) {

    public static SortField asc(String field) {
        return new SortField(field, false);
    }

    public static SortField desc(String field) {
        return new SortField(field, true);
    }

    /** The best match first. */
    public static SortField relevance() {
        return new SortField(null, true);
    }

    public boolean isRelevance() {
        return field == null;
    }
}
