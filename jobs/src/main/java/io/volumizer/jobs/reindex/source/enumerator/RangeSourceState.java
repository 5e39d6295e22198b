package io.volumizer.jobs.reindex.source.enumerator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import io.volumizer.jobs.reindex.source.split.IdRange;

/**
 * The enumerator's state in a checkpoint: the ranges found and not yet handed to a reader, where finding more
 * resumes ({@code nextFrom}, the first id of the next range; null before the first), whether every range is found,
 * and the index the next range gets.
 */
public record RangeSourceState(List<IdRange> pending, String nextFrom, boolean allFound, int nextIndex) {

    public static final class Serializer implements SimpleVersionedSerializer<RangeSourceState> {

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(RangeSourceState state) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(state.pending.size());
                for (IdRange range : state.pending) {
                    IdRange.Serializer.write(out, range);
                }
                IdRange.Serializer.writeNullable(out, state.nextFrom);
                out.writeBoolean(state.allFound);
                out.writeInt(state.nextIndex);
            }
            return bytes.toByteArray();
        }

        @Override
        public RangeSourceState deserialize(int version, byte[] serialized) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                int count = in.readInt();
                List<IdRange> pending = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    pending.add(IdRange.Serializer.read(in));
                }
                return new RangeSourceState(pending, IdRange.Serializer.readNullable(in), in.readBoolean(), in.readInt());
            }
        }
    }
}
