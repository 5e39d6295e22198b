package io.volumizer.jobs.internal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.event.ReasonClass;

class RecordDecoderTest {

    private static final RawRecord RECORD = new RawRecord(null, new byte[] {0, 0, 0, 0, 9}, "documents", 0, 1, 0);

    @Test
    void aSchemaIdWhoseSchemaIsNotAvroIsTheRecordsFaultAndAnUnreachableRegistryIsNot() {
        List<ReasonClass> rejected = new ArrayList<>();
        RecordDecoder<String> notAvro = new RecordDecoder<>(bytes -> {
            throw new WireFormatException(WireFormatException.Kind.NOT_AVRO, "schema id 9 is a JSON schema, not Avro");
        });
        RecordDecoder<String> registryDown = new RecordDecoder<>(bytes -> {
            throw new WireFormatException(WireFormatException.Kind.REGISTRY_UNAVAILABLE, "registry unreachable");
        });

        assertThat(notAvro.decode(RECORD, (reasonClass, reason) -> rejected.add(reasonClass))).isNull();
        assertThat(rejected).containsExactly(ReasonClass.NOT_AVRO);
        assertThatThrownBy(() -> registryDown.decode(RECORD, (reasonClass, reason) -> rejected.add(reasonClass)))
                .isInstanceOf(WireFormatException.class).hasMessageContaining("registry unreachable");
    }
}
