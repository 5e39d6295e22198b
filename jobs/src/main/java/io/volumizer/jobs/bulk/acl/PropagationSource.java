package io.volumizer.jobs.bulk.acl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import io.volumizer.schemas.event.DocumentEvent;

/**
 * The events of a setAcl command (FLIP-27, bounded, one split: the propagation, {@link PropagationReader}). A source
 * rather than an operator: it waits between rounds for the import to apply what it sent, and a source's reader can
 * wait without holding up checkpoints and savepoints, so the command can be stopped and resumed like any other.
 */
public final class PropagationSource implements Source<DocumentEvent, PropagationSource.Split, Boolean>,
        ResultTypeQueryable<DocumentEvent> {

    private static final long serialVersionUID = 1L;

    private final SetAclSettings settings;

    PropagationSource(SetAclSettings settings) {
        this.settings = settings;
    }

    /** The one split: the command's propagation, worked out again from MongoDB wherever it is restored. */
    record Split(String commandId) implements SourceSplit {
        @Override
        public String splitId() {
            return commandId;
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<DocumentEvent, Split> createReader(SourceReaderContext context) {
        return new PropagationReader(settings);
    }

    @Override
    public SplitEnumerator<Split, Boolean> createEnumerator(SplitEnumeratorContext<Split> context) {
        return new Enumerator(context, settings.commandId(), false);
    }

    @Override
    public SplitEnumerator<Split, Boolean> restoreEnumerator(SplitEnumeratorContext<Split> context, Boolean assigned) {
        return new Enumerator(context, settings.commandId(), assigned);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new Serializer<>(Split::commandId, Split::new);
    }

    @Override
    public SimpleVersionedSerializer<Boolean> getEnumeratorCheckpointSerializer() {
        return new Serializer<>(String::valueOf, Boolean::valueOf);
    }

    @Override
    public TypeInformation<DocumentEvent> getProducedType() {
        return TypeInformation.of(DocumentEvent.class);
    }

    /** Hands the split to the first reader; once handed out, it lives in that reader's state. */
    private static final class Enumerator implements SplitEnumerator<Split, Boolean> {
        private final SplitEnumeratorContext<Split> context;
        private final String commandId;
        private boolean assigned;

        Enumerator(SplitEnumeratorContext<Split> context, String commandId, boolean assigned) {
            this.context = context;
            this.commandId = commandId;
            this.assigned = assigned;
        }

        @Override
        public void start() {
        }

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {
        }

        @Override
        public void addSplitsBack(List<Split> splits, int subtaskId) {
            assigned = false; // its reader failed before a checkpoint held it: it goes to the next reader to register
        }

        @Override
        public void addReader(int subtaskId) {
            if (!assigned) {
                context.assignSplit(new Split(commandId), subtaskId);
                assigned = true;
            }
            context.signalNoMoreSplits(subtaskId);
        }

        @Override
        public Boolean snapshotState(long checkpointId) {
            return assigned;
        }

        @Override
        public void close() {
        }
    }

    /** A value as one UTF string. */
    private record Serializer<T>(java.util.function.Function<T, String> write, java.util.function.Function<String, T> read)
            implements SimpleVersionedSerializer<T> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(T value) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeUTF(write.apply(value));
            }
            return bytes.toByteArray();
        }

        @Override
        public T deserialize(int version, byte[] serialized) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                return read.apply(in.readUTF());
            }
        }
    }
}
