package io.volumizer.jobs.internal.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.volumizer.schemas.keys.ProgressMarks;

/** Passes records on undecoded: nothing a producer wrote can make the source fail. */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        RawRecord raw = new RawRecord(record.key(), record.value(), record.topic(), record.partition(), record.offset(),
                record.timestamp());
        raw.progressMark = ProgressMarks.isMark(record.headers());
        out.collect(raw);
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
