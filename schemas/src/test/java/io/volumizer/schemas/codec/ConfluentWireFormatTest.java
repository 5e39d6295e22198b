package io.volumizer.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConfluentWireFormatTest {

    @Test
    void headerRoundTripsTheSchemaIdBigEndian() {
        byte[] message = new byte[7];
        ConfluentWireFormat.writeHeader(0x01020304, message);

        assertThat(message).startsWith(0, 1, 2, 3, 4);
        assertThat(ConfluentWireFormat.schemaId(message)).isEqualTo(0x01020304);
    }

    @Test
    void wrongMagicByteIsNamed() {
        assertThatThrownBy(() -> ConfluentWireFormat.schemaId(new byte[] {'{', '"', 'a', '"', ':'}))
                .isInstanceOfSatisfying(WireFormatException.class,
                        e -> assertThat(e.kind()).isEqualTo(WireFormatException.Kind.WRONG_MAGIC_BYTE))
                .hasMessageContaining("0x7b");
    }

    @Test
    void shortMessagesAreTruncated() {
        assertThatThrownBy(() -> ConfluentWireFormat.schemaId(new byte[] {0, 0, 1}))
                .isInstanceOfSatisfying(WireFormatException.class,
                        e -> assertThat(e.kind()).isEqualTo(WireFormatException.Kind.TRUNCATED));
        assertThatThrownBy(() -> ConfluentWireFormat.schemaId(null)).isInstanceOf(WireFormatException.class);
    }
}
