package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

class CursorsTest {

    private final ArrayNode values = new ObjectMapper().createArrayNode().add(7.25).add("ac-1-st-2025-01");
    private final Cursors cursors = Cursors.sealedWith("a key of the test");

    @Test
    void aCursorGivesBackItsSortValuesToItsCallerAlone() {
        String cursor = cursors.seal("alice", "relevance", values);
        assertThat(cursors.open(cursor, "alice", "relevance", 2)).isEqualTo(values);
        assertThat(cursors.open(null, "alice", "relevance", 2)).isNull();
        assertThat(Cursors.sealedWith("a key of the test").open(cursor, "alice", "relevance", 2))
                .as("another replica with the same key").isEqualTo(values);
        assertThatThrownBy(() -> cursors.open(cursor, "bob", "relevance", 2)).as("lent")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo("invalid_cursor"));
        assertThatThrownBy(() -> Cursors.sealedWith("another key").open(cursor, "alice", "relevance", 2))
                .isInstanceOf(ApiException.class);
    }

    @Test
    void aCursorSaysNothingOfWhatItHolds() {
        String cursor = cursors.seal("alice", "relevance", values);
        String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.ISO_8859_1);
        assertThat(decoded).doesNotContain("7.25").doesNotContain("ac-1-st").doesNotContain("relevance");
        assertThat(cursors.seal("alice", "relevance", values)).as("sealed anew each time").isNotEqualTo(cursor);
    }

    @Test
    void aCursorOfAnotherSortOrForgedIsRefused() {
        String cursor = cursors.seal("alice", "name", values);
        assertThatThrownBy(() -> cursors.open(cursor, "alice", "date", 2)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> cursors.open("!!", "alice", "name", 2)).isInstanceOf(ApiException.class);
        char[] chars = cursor.toCharArray();
        chars[chars.length / 2] = chars[chars.length / 2] == 'A' ? 'B' : 'A';
        assertThatThrownBy(() -> cursors.open(new String(chars), "alice", "name", 2)).as("one character changed")
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> cursors.open(cursor, "alice", "name", 3)).isInstanceOf(ApiException.class);
        String nested = cursors.seal("alice", "name", new ObjectMapper().createArrayNode().add("a")
                .add(new ObjectMapper().createObjectNode()));
        assertThatThrownBy(() -> cursors.open(nested, "alice", "name", 2)).isInstanceOf(ApiException.class);
    }
}
