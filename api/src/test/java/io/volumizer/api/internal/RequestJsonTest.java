package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RequestJsonTest {

    private final RequestJson json = new RequestJson(1024);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String error(Runnable read) {
        try {
            read.run();
            throw new AssertionError("read");
        } catch (ApiException e) {
            return e.status() + " " + e.error();
        }
    }

    @Test
    void anObjectWithinTheLimitsIsRead() {
        assertThat(json.object(bytes("{\"name\": \"x\", \"properties\": {\"a\": [1, 2]}}"), false).path("name").asText())
                .isEqualTo("x");
        assertThat(json.object(bytes(" \n"), true)).isEmpty();
        assertThat(json.object(bytes(""), false)).isNull();
    }

    @Test
    void whatNoValidBodyIsIsRefusedBeforeATreeIsBuilt() {
        assertThat(error(() -> json.object(bytes("[{},{},{}]"), false))).isEqualTo("400 invalid_json");
        assertThat(error(() -> json.object(bytes("{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}"), false)))
                .as("nested past the limit").isEqualTo("400 invalid_json");
        assertThat(error(() -> json.object(bytes("{\"a\": 1} {\"b\": 2}"), false))).isEqualTo("400 invalid_json");
        assertThat(error(() -> json.object(bytes("{\"a\": "), false))).isEqualTo("400 invalid_json");
        assertThat(error(() -> json.object(new byte[1025], false))).isEqualTo("413 payload_too_large");
    }

    @Test
    void aCappedStreamStopsOneBytePastItsLimit() throws Exception {
        ByteArrayInputStream source = new ByteArrayInputStream(new byte[10_000]);
        assertThatThrownBy(() -> RequestBodies.capped(source, 100).readAllBytes())
                .isInstanceOf(RequestBodies.RefusedBodyException.class);
        assertThat(source.available()).as("read no further than the cap").isGreaterThanOrEqualTo(10_000 - 101);
        assertThat(RequestBodies.capped(new ByteArrayInputStream(new byte[100]), 100).readAllBytes()).hasSize(100);
    }
}
