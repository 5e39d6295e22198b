package io.volumizer.domain.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import io.volumizer.stores.InvalidFieldException;

class SelectionTest {

    @Test
    void filtersAreReadAndWrittenBackAsTheyWereMeant() {
        Selection selection = Selection.parse(Map.of("type", "Statement,Letter", "state", "tx", "from", "2024-01-01",
                "to", "2024-12-31", "q", "\"john smith\" -closed", "customer", "0000000042,0000000043"));
        assertThat(selection.types()).containsExactly("Statement", "Letter");
        assertThat(selection.states()).containsExactly("TX");
        assertThat(selection.customers()).containsExactly("0000000042", "0000000043");
        assertThat(selection.from()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
        assertThat(selection.to()).isEqualTo(Instant.parse("2024-12-31T23:59:59.999Z"));
        assertThat(Selection.parse(selection.filters())).isEqualTo(selection);
    }

    @Test
    void statesSelectTheirFoldersAndEveryValueIsAJsonValue() {
        String query = Selection.parse(Map.of("state", "CA", "type", "Statement", "q", "a\"} OR {\"", "customer", "0000000042"))
                .query().toString();
        assertThat(query).contains("\"ancestorIds\":[\"st-CA\"]").contains("\"type\":[\"Statement\"]")
                .contains("\"properties.customerNumber\":[\"0000000042\"]")
                .contains("\"query\":\"a\\\"} OR {\\\"\"");
    }

    @Test
    void anUnknownFilterOrABadValueIsNamed() {
        assertThat(filterAtFault(Map.of("colour", "red"))).isEqualTo("colour");
        assertThat(filterAtFault(Map.of("type", "Statement;drop"))).isEqualTo("type");
        assertThat(filterAtFault(Map.of("state", "Texas"))).isEqualTo("state");
        assertThat(filterAtFault(Map.of("customer", "42,x"))).isEqualTo("customer");
        assertThat(filterAtFault(Map.of("to", "31/01/2025"))).isEqualTo("to");
        assertThat(filterAtFault(Map.of("from", "2025-02-01", "to", "2025-01-01"))).isEqualTo("from");
        assertThat(filterAtFault(Map.of("q", "\"open"))).isEqualTo("q");
        assertThat(filterAtFault(Map.of("q", "(a | b"))).isEqualTo("q");
        assertThat(filterAtFault(Map.of("q", "a)"))).isEqualTo("q");
        assertThat(filterAtFault(Map.of("q", "x".repeat(513)))).isEqualTo("q");
    }

    @Test
    void escapedQuotesAndQuotedBracketsAreBalanced() {
        Selection.checkSyntax("\"a (b\" c");
        Selection.checkSyntax("a \\\" b");
        Selection.checkSyntax("(a | b) -c*");
    }

    private static String filterAtFault(Map<String, String> filters) {
        Throwable error = catchThrowable(() -> Selection.parse(filters));
        assertThat(error).isInstanceOf(InvalidFieldException.class);
        return ((InvalidFieldException) error).field();
    }
}
