package io.volumizer.stores.search;

/** What a search may count its matches by; each answers buckets of a key and a count, under its name. */
public sealed interface Aggregation {

    String name();

    /**
     * The {@code size} most frequent values of a keyword field.
     *
     * @param include a regular expression of the values counted, or null for all
     */
    record Terms(String name, String field, int size, String include) implements Aggregation {
    }

    /**
     * Documents per calendar month of a date field; months without any are left out.
     *
     * @param format the keys' date format (yyyy-MM, say), or null for the engine's
     */
    record Monthly(String name, String field, String format) implements Aggregation {
    }
}
