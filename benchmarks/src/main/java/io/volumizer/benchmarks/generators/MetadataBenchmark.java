package io.volumizer.benchmarks.generators;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Metadata documents per second into Avro bytes (what the generate job writes, less the 5-byte wire header):
 * documentAt(i) for consecutive indices, then Avro binary encoding. The baseline is Avro encoding alone, of
 * one already generated document.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MetadataBenchmark {

    /** One generator per thread, each walking its own index range, as parallel source readers do. */
    @State(Scope.Thread)
    public static class Generator {
        final BankGenerator generator = new BankGenerator(GeneratorSettings.of(1, 50_000_000));
        final SpecificDatumWriter<DocumentEvent> writer = new SpecificDatumWriter<>(DocumentEvent.class);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        final DocumentEvent sample = generator.documentAt(generator.firstIndexOf(7) + 5);
        BinaryEncoder encoder;
        long index = generator.firstIndexOf((Thread.currentThread().getId() * 1_000_003L) % 40_000_000);

        byte[] encode(DocumentEvent document) throws IOException {
            bytes.reset();
            encoder = EncoderFactory.get().directBinaryEncoder(bytes, encoder);
            writer.write(document, encoder);
            return bytes.toByteArray();
        }
    }

    @Benchmark
    public byte[] generateAndEncode(Generator state) throws IOException {
        DocumentEvent document;
        do {
            document = state.generator.documentAt(state.index++);
        } while (document == null);
        return state.encode(document);
    }

    @Benchmark
    public byte[] encodeOnlyBaseline(Generator state) throws IOException {
        return state.encode(state.sample);
    }
}
