package io.volumizer.domain.selection;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.generators.BankGenerator;
import io.volumizer.stores.search.SelectionQuery;
import io.volumizer.stores.InvalidFieldException;

/**
 * Which documents a search or a bulk command is about, from the same filters: {@code q} (simple query syntax over
 * title and fulltext: words, "phrases", -exclusions, prefix*), {@code type}, {@code state} and {@code customer}
 * (customer numbers; comma-separated, any of them), {@code from} and {@code to} (creation date, a day or an instant,
 * inclusive). Read strictly: an unknown filter or a bad value is an error naming it, before anything runs.
 */
public record Selection(String q, List<String> types, List<String> states, List<String> customers, Instant from,
        Instant to) {

    /** The filters there are, in the order they are written back. */
    public static final List<String> FILTERS = List.of("q", "type", "state", "customer", "from", "to");
    private static final int MAX_QUERY_LENGTH = 512;

    /**
     * @param filters filter name to value; null or empty values are absent filters
     * @throws InvalidFieldException naming the first filter that is unknown or wrong, and why
     */
    public static Selection parse(Map<String, String> filters) {
        for (String name : filters.keySet()) {
            if (!FILTERS.contains(name)) {
                throw new InvalidFieldException(name, "unknown filter '" + name + "'; filters: " + String.join(", ", FILTERS));
            }
        }
        String q = value(filters, "q");
        if (q != null) {
            checkSyntax(q);
        }
        List<String> types = list(value(filters, "type"), "type", "[A-Z][A-Za-z0-9]{0,63}", "type names such as Statement");
        List<String> states = list(value(filters, "state"), "state", "[A-Za-z]{2}", "two-letter state codes such as CA")
                .stream().map(String::toUpperCase).toList();
        List<String> customers = list(value(filters, "customer"), "customer", "[0-9]{1,20}", "customer numbers such as 0000000042");
        Instant from = instant(value(filters, "from"), "from", false);
        Instant to = instant(value(filters, "to"), "to", true);
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidFieldException("from", "from must not be after to");
        }
        return new Selection(q, types, states, customers, from, to);
    }

    /** The filters as they are written: what {@link #parse} reads back into this selection. */
    public Map<String, String> filters() {
        Map<String, String> filters = new LinkedHashMap<>();
        if (q != null) {
            filters.put("q", q);
        }
        if (!types.isEmpty()) {
            filters.put("type", String.join(",", types));
        }
        if (!states.isEmpty()) {
            filters.put("state", String.join(",", states));
        }
        if (!customers.isEmpty()) {
            filters.put("customer", String.join(",", customers));
        }
        if (from != null) {
            filters.put("from", from.toString());
        }
        if (to != null) {
            filters.put("to", to.toString());
        }
        return filters;
    }

    /** The property values the selection takes documents by: property name to its values, any of them. */
    public Map<String, List<String>> properties() {
        return Map.of(BankGenerator.CUSTOMER_NUMBER, customers);
    }

    /** The Elasticsearch query: states are the folders {@code st-XX} above their customers' documents. */
    public ObjectNode query() {
        return SelectionQuery.bool(q, types, states.stream().map(BankGenerator::stateId).toList(), properties(), from, to);
    }

    /** Refuses what Elasticsearch would read differently from what the user meant: unbalanced quotes or brackets. */
    static void checkSyntax(String q) {
        if (q.length() > MAX_QUERY_LENGTH) {
            throw new InvalidFieldException("q", "q is at most " + MAX_QUERY_LENGTH + " characters, was " + q.length());
        }
        boolean quoted = false;
        int depth = 0;
        for (int i = 0; i < q.length(); i++) {
            char c = q.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth < 0) {
                throw new InvalidFieldException("q", "q has an unmatched ')' at position " + (i + 1));
            }
        }
        if (quoted) {
            throw new InvalidFieldException("q", "q has an unterminated \" (phrase)");
        }
        if (depth > 0) {
            throw new InvalidFieldException("q", "q has " + depth + " unclosed '('");
        }
    }

    private static String value(Map<String, String> filters, String name) {
        String value = filters.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    private static List<String> list(String value, String field, String pattern, String expected) {
        List<String> items = new ArrayList<>();
        if (value == null) {
            return items;
        }
        for (String item : value.split(",", -1)) {
            if (!item.matches(pattern)) {
                throw new InvalidFieldException(field, field + " must be a comma-separated list of " + expected + ", was '" + value + "'");
            }
            items.add(item);
        }
        return items;
    }

    private static Instant instant(String value, String field, boolean endOfDay) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                return (endOfDay ? day.plusDays(1).atStartOfDay(ZoneOffset.UTC).minusNanos(1_000_000)
                        : day.atStartOfDay(ZoneOffset.UTC)).toInstant();
            }
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidFieldException(field, field + " must be a date (2025-01-31) or an instant (2025-01-31T12:00:00Z), was '" + value + "'");
        }
    }
}
