package io.volumizer.jobs.reindex.source.split;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.bson.Document;
import org.bson.conversions.Bson;

import io.volumizer.stores.DocumentFields;

/**
 * A range of document ids, {@code [from, to)} ({@code null}: open), and how far a reader got in it: the last id it
 * emitted and how many documents that was. A split of the reindex source, and its state in a checkpoint: a
 * restored reader resumes the range after its last id.
 */
public final class IdRange implements SourceSplit {

    private final int index;
    private final String from;
    private final String to;
    private String after;
    private long read;

    public IdRange(int index, String from, String to) {
        this(index, from, to, null, 0);
    }

    private IdRange(int index, String from, String to, String after, long read) {
        this.index = index;
        this.from = from;
        this.to = to;
        this.after = after;
        this.read = read;
    }

    @Override
    public String splitId() {
        return Integer.toString(index);
    }

    public int index() {
        return index;
    }

    public String from() {
        return from;
    }

    public String to() {
        return to;
    }

    public String after() {
        return after;
    }

    public long read() {
        return read;
    }

    /**
     * The documents of the range after {@code lastRead} (null: from its start), as a MongoDB filter: both bounds in
     * one condition on the id, {@code {_id: {$gte: from, $lt: to}}}, which an index on the id serves as one range.
     */
    public Bson filterAfter(String lastRead) {
        Document bounds = new Document();
        if (lastRead != null) {
            bounds.append("$gt", lastRead);
        } else if (from != null) {
            bounds.append("$gte", from);
        }
        if (to != null) {
            bounds.append("$lt", to);
        }
        return bounds.isEmpty() ? new Document() : new Document(DocumentFields.KEY, bounds);
    }

    /** Notes a document emitted: part of the split's state in the next checkpoint. */
    public void emitted(String id) {
        after = id;
        read++;
    }

    /** A copy, as the reader hands its state to a checkpoint. */
    public IdRange copy() {
        return new IdRange(index, from, to, after, read);
    }

    @Override
    public String toString() {
        return "range " + index + " [" + (from == null ? "start" : from) + ", " + (to == null ? "end" : to) + ")";
    }

    /** Ranges in checkpoints and on their way to readers. */
    public static final class Serializer implements SimpleVersionedSerializer<IdRange> {

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(IdRange range) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                write(out, range);
            }
            return bytes.toByteArray();
        }

        @Override
        public IdRange deserialize(int version, byte[] serialized) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                return read(in);
            }
        }

        public static void write(DataOutputStream out, IdRange range) throws IOException {
            out.writeInt(range.index);
            writeNullable(out, range.from);
            writeNullable(out, range.to);
            writeNullable(out, range.after);
            out.writeLong(range.read);
        }

        public static IdRange read(DataInputStream in) throws IOException {
            return new IdRange(in.readInt(), readNullable(in), readNullable(in), readNullable(in), in.readLong());
        }

        public static void writeNullable(DataOutputStream out, String value) throws IOException {
            out.writeBoolean(value != null);
            if (value != null) {
                out.writeUTF(value);
            }
        }

        public static String readNullable(DataInputStream in) throws IOException {
            return in.readBoolean() ? in.readUTF() : null;
        }
    }
}
