package io.volumizer.domain.topology;

import java.io.Serializable;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

import io.volumizer.schemas.event.DocumentEvent;

/**
 * One routing rule of a topology: the documents it takes and the repository they go to. Its conditions all hold
 * for a document it takes; a rule without conditions takes every document.
 *
 * @param line      where the rule is in its topology file, for the errors that name it
 * @param types     the document types it takes; empty for any type
 * @param property  a property the document must have, with one of {@code values}; null for none
 * @param values    the property's values it takes, compared as text
 * @param minAgeMonths the document's least age in months ({@code created} at or before the reference minus this);
 *                  0 for any age
 * @param repository where the documents it takes go
 */
public record RoutingRule(int line, Set<String> types, String property, Set<String> values, int minAgeMonths,
        String repository) implements Serializable {

    public boolean isUnconditional() {
        return types.isEmpty() && property == null && minAgeMonths == 0;
    }

    /** @param reference the present that ages are measured from */
    public boolean takes(DocumentEvent document, Instant reference) {
        if (!types.isEmpty() && !types.contains(document.getType())) {
            return false;
        }
        if (property != null) {
            Object value = document.getProperties().get(property);
            if (value == null || !values.contains(value.toString())) {
                return false;
            }
        }
        return minAgeMonths == 0 || !document.getCreated().isAfter(
                reference.atZone(ZoneOffset.UTC).minusMonths(minAgeMonths).toInstant());
    }

    /** Whether every document this rule takes is taken by {@code earlier} too, so that it never applies after it. */
    boolean isCoveredBy(RoutingRule earlier) {
        return (earlier.types.isEmpty() || !types.isEmpty() && earlier.types.containsAll(types))
                && (earlier.property == null || earlier.property.equals(property) && earlier.values.containsAll(values))
                && earlier.minAgeMonths <= minAgeMonths;
    }

    /** Whether both rules take documents of the same types and ages by the same property. */
    boolean differsOnlyInValuesFrom(RoutingRule other) {
        return types.equals(other.types) && minAgeMonths == other.minAgeMonths && property != null
                && property.equals(other.property);
    }
}
