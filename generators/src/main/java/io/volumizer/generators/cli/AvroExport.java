package io.volumizer.generators.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumWriter;

import io.volumizer.generators.BankGenerator;
import io.volumizer.schemas.event.DocumentEvent;

/** An Avro object container file of document events (schema embedded, uncompressed). */
final class AvroExport {

    private final OutputStream out;
    private final byte[] syncMarker;

    AvroExport(OutputStream out, long syncHigh, long syncLow) {
        this.out = out;
        this.syncMarker = ByteBuffer.allocate(16).putLong(syncHigh).putLong(syncLow).array();
    }

    long write(BankGenerator generator, Progress progress) throws IOException {
        long written = 0;
        try (DataFileWriter<DocumentEvent> file = new DataFileWriter<>(new SpecificDatumWriter<>(DocumentEvent.class))) {
            file.create(DocumentEvent.getClassSchema(), out, syncMarker);
            for (long index = 0; index < generator.indexSpace(); index++) {
                DocumentEvent document = generator.documentAt(index);
                if (document != null) {
                    file.append(document);
                    written++;
                }
                progress.at(index, written);
            }
        }
        return written;
    }
}
