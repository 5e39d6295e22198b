package io.volumizer.jobs.internal.deadletter;

import java.nio.ByteBuffer;
import java.time.Instant;

import org.apache.flink.util.OutputTag;

import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.schemas.event.DeadLetter;

/** Builds dead-letter records; every operator that can reject something sends them to {@link #TAG}. */
public final class DeadLetters {

    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters") { };

    private DeadLetters() {
    }

    /** A record that came from Kafka and could not be processed. */
    public static DeadLetter of(String stage, String reason, RawRecord record) {
        return DeadLetter.newBuilder().setStage(stage).setReason(reason)
                .setPayload(ByteBuffer.wrap(record.value == null ? new byte[0] : record.value))
                .setKey(record.key == null ? null : ByteBuffer.wrap(record.key))
                .setTopic(record.topic).setPartition(record.partition).setOffset(record.offset)
                .setTimestamp(Instant.now()).build();
    }

    /** A decoded document that could not be processed: its payload is the document re-encoded. */
    public static DeadLetter of(String stage, String reason, String documentId, byte[] payload) {
        return DeadLetter.newBuilder().setStage(stage).setReason(reason).setPayload(ByteBuffer.wrap(payload))
                .setDocumentId(documentId).setTimestamp(Instant.now()).build();
    }
}
