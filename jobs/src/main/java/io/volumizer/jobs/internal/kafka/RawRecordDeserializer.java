package io.volumizer.jobs.internal.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Passes records on undecoded: nothing a producer wrote can make the source fail. */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        out.collect(new RawRecord(record.key(), record.value(), record.topic(), record.partition(), record.offset(),
                record.timestamp()));
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
