package io.volumizer.stores.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.bson.BsonBinaryWriter;
import org.bson.BsonSerializationException;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;

class Utf8OutputBufferTest {

    private static final List<String> TEXTS = List.of("", "plain ascii", "Zürich, Ålesund, Łódź", "東京 – €",
            "emoji 😀 pair", "lone \uD83D high", "lone \uDE00 low", "nul \0 inside a value", "x".repeat(5000));

    @Test
    void writesTheSameBytesAsTheDriversBuffer() {
        for (String text : TEXTS) {
            String name = text.replace('\0', '_');
            assertThat(bson(new Utf8OutputBuffer(16), name, text)).as(text)
                    .isEqualTo(bson(new BasicOutputBuffer(16), name, text));
        }
    }

    @Test
    void refusesANulInAFieldNameAsTheDriverDoes() {
        assertThatThrownBy(() -> bson(new Utf8OutputBuffer(16), "a\0b", "value"))
                .isInstanceOf(BsonSerializationException.class).hasMessageContaining("null character");
    }

    private static byte[] bson(BasicOutputBuffer buffer, String name, String value) {
        try (BsonBinaryWriter writer = new BsonBinaryWriter(buffer)) {
            writer.writeStartDocument();
            writer.writeString(name, value);
            writer.writeStartArray("list");
            writer.writeString(value);
            writer.writeEndArray();
            writer.writeEndDocument();
        }
        return buffer.toByteArray();
    }
}
