package io.volumizer.jobs.internal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.keys.ProgressMarks;

class RawRecordDeserializerTest {

    @Test
    void aProgressMarkIsPassedOnAsSuchWithItsTimestampAndADocumentIsNot() {
        RecordHeaders markHeaders = new RecordHeaders();
        markHeaders.add(ProgressMarks.HEADER, ProgressMarks.HEADER_VALUE);
        ConsumerRecord<byte[], byte[]> mark = new ConsumerRecord<>("documents", 2, 40, 1_000L, TimestampType.CREATE_TIME,
                0, 0, null, null, markHeaders, Optional.empty());
        ConsumerRecord<byte[], byte[]> document = new ConsumerRecord<>("documents", 2, 41, 1_001L,
                TimestampType.CREATE_TIME, 3, 5, "key".getBytes(StandardCharsets.UTF_8),
                "value".getBytes(StandardCharsets.UTF_8), new RecordHeaders(), Optional.empty());
        List<RawRecord> out = new ArrayList<>();
        Collector<RawRecord> collector = new Collector<>() {
            @Override
            public void collect(RawRecord record) {
                out.add(record);
            }

            @Override
            public void close() {
            }
        };

        new RawRecordDeserializer().deserialize(mark, collector);
        new RawRecordDeserializer().deserialize(document, collector);

        assertThat(out).extracting(r -> r.progressMark, r -> r.timestamp, r -> r.offset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(true, 1_000L, 40L),
                        org.assertj.core.groups.Tuple.tuple(false, 1_001L, 41L));
    }
}
