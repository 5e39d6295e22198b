package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

class CursorsTest {

    private final ArrayNode values = new ObjectMapper().createArrayNode().add("statement-2025-01.pdf").add("ac-1-st-2025-01");

    @Test
    void aCursorGivesBackItsSortValues() {
        assertThat(Cursors.decode(Cursors.encode("name", values), "name", 2)).isEqualTo(values);
        assertThat(Cursors.decode(null, "name", 2)).isNull();
    }

    @Test
    void aCursorOfAnotherSortOrForgedIsRefused() {
        String cursor = Cursors.encode("name", values);
        assertThatThrownBy(() -> Cursors.decode(cursor, "date", 2)).isInstanceOf(ApiException.class)
                .hasMessageContaining("sort=name");
        assertThatThrownBy(() -> Cursors.decode("!!", "name", 2)).isInstanceOf(ApiException.class);
        String nested = Cursors.encode("name", new ObjectMapper().createArrayNode().add("a").add(new ObjectMapper().createObjectNode()));
        assertThatThrownBy(() -> Cursors.decode(nested, "name", 2)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> Cursors.decode(cursor, "name", 3)).isInstanceOf(ApiException.class);
    }
}
