package io.volumizer.api.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.volumizer.api.internal.ApiException;

class DocumentInputTest {

    private static DocumentInput parse(String json) {
        return DocumentInput.parse(new io.volumizer.api.internal.RequestJson(1 << 20), json.getBytes(StandardCharsets.UTF_8));
    }

    private static String refusedField(String json) {
        ApiException refused = catchThrowableOfType(ApiException.class, () -> parse(json).requireForCreate());
        assertThat(refused).as(json).isNotNull();
        assertThat(refused.status()).isEqualTo(400);
        return refused.field();
    }

    @Test
    void typedPropertiesKeepTheirTypes() {
        DocumentInput input = parse("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"properties\":"
                + "{\"pages\":3,\"ratio\":0.5,\"urgent\":false,\"remark\":\"x\",\"none\":null}}").requireForCreate();
        assertThat(input.properties()).containsEntry("pages", 3L).containsEntry("ratio", 0.5)
                .containsEntry("urgent", false).containsEntry("remark", "x").containsEntry("none", null);
        assertThat(input.title()).isNull();
    }

    @Test
    void eachRefusalNamesTheField() {
        assertThat(refusedField("")).isEqualTo("body");
        assertThat(refusedField("{")).isEqualTo("body");
        assertThat(refusedField("\"text\"")).isEqualTo("body");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"owner\":\"me\"}")).isEqualTo("owner");
        assertThat(refusedField("{\"type\":\"Note\",\"name\":\"n\"}")).isEqualTo("parentId");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":[\"n\"]}")).isEqualTo("name");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"\"}")).isEqualTo("name");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"id\":\"../x\"}")).isEqualTo("id");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"properties\":[]}")).isEqualTo("properties");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"properties\":{\"a\":[1]}}")).isEqualTo("properties.a");
        assertThat(refusedField("{\"parentId\":\"p\",\"type\":\"Note\",\"name\":\"n\",\"properties\":{\"1a\":1}}")).isEqualTo("properties.1a");
    }
}
