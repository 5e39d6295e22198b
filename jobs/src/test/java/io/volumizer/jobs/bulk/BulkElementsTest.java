package io.volumizer.jobs.bulk;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** What flows between a bulk command's operators goes with Flink's POJO serializer, not Kryo. */
class BulkElementsTest {

    @Test
    void aSelectedDocumentIsAPojoAndComesBackWhole() throws Exception {
        assertThat(roundTrip(Selected.class, new Selected("doc-1", 42))).isEqualTo(new Selected("doc-1", 42));
    }

    @Test
    void countsAreAPojoAndComeBackWhole() throws Exception {
        assertThat(roundTrip(Counts.class, new Counts(7, 3))).isEqualTo(new Counts(7, 3));
    }

    private static <T> T roundTrip(Class<T> type, T value) throws Exception {
        TypeInformation<T> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        TypeSerializer<T> serializer = info.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
