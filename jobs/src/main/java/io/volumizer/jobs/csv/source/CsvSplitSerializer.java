package io.volumizer.jobs.csv.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Splits in checkpoints: one split, or the enumerator's pending splits and whether the files were cut yet. */
final class CsvSplitSerializer implements SimpleVersionedSerializer<CsvSplit> {

    static final CsvSplitSerializer INSTANCE = new CsvSplitSerializer();
    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CsvSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public CsvSplit deserialize(int version, byte[] serialized) throws IOException {
        return read(new DataInputDeserializer(serialized));
    }

    static void write(CsvSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.id());
        out.writeUTF(split.file());
        out.writeLong(split.start());
        out.writeLong(split.end());
        out.writeLong(split.line());
        // A header may be longer than writeUTF's 64 KiB.
        byte[] header = split.header().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(header.length);
        out.write(header);
    }

    static CsvSplit read(DataInputView in) throws IOException {
        String id = in.readUTF();
        String file = in.readUTF();
        long start = in.readLong();
        long end = in.readLong();
        long line = in.readLong();
        byte[] header = new byte[in.readInt()];
        in.readFully(header);
        return new CsvSplit(id, file, start, end, line, new String(header, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The enumerator's state: the splits no reader has, and whether the files have been cut into splits. */
    record EnumeratorState(boolean cut, List<CsvSplit> pending) {
    }

    static final class EnumeratorStateSerializer implements SimpleVersionedSerializer<EnumeratorState> {

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(EnumeratorState state) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(1024);
            out.writeBoolean(state.cut());
            out.writeInt(state.pending().size());
            for (CsvSplit split : state.pending()) {
                write(split, out);
            }
            return out.getCopyOfBuffer();
        }

        @Override
        public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            boolean cut = in.readBoolean();
            int count = in.readInt();
            Collection<CsvSplit> pending = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                pending.add(read(in));
            }
            return new EnumeratorState(cut, List.copyOf(pending));
        }
    }
}
