package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.ApiServer;

class ApiExceptionTest {

    @Test
    void everyCodeIsDocumentedAndNoneIsUsedWithAnotherStatus() throws Exception {
        String documented;
        try (InputStream in = ApiServer.class.getResourceAsStream("openapi.json")) {
            documented = new ObjectMapper().readTree(in).path("components").path("schemas").path("Error")
                    .path("properties").path("error").path("description").asText();
        }
        ApiException.CODES.values().forEach(codes -> assertThat(documented).contains(codes));
        assertThatThrownBy(() -> new ApiException(400, "conflict", null, "a code of 409"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ApiException.codeOf(404)).isEqualTo("not_found");
        assertThat(ApiException.codeOf(418)).isEqualTo("refused");
    }
}
