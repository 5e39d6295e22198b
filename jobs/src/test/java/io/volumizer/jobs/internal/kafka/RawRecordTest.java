package io.volumizer.jobs.internal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RawRecordTest {

    @Test
    void survivesItsCompactFormWithAndWithoutKeyAndValue() {
        RawRecord full = new RawRecord("parent".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2}, "docs.é", 3, 42, 7);
        RawRecord back = RawRecord.fromBytes(full.toBytes());
        assertThat(back).usingRecursiveComparison().isEqualTo(full);

        RawRecord empty = new RawRecord(null, null, "docs", 0, 0, 0);
        assertThat(RawRecord.fromBytes(empty.toBytes())).usingRecursiveComparison().isEqualTo(empty);
    }

    @Test
    void keyTextIsTheKeyOrElseThePosition() {
        assertThat(new RawRecord("p1".getBytes(StandardCharsets.UTF_8), null, "docs", 1, 9, 0).keyText()).isEqualTo("p1");
        assertThat(new RawRecord(null, null, "docs", 1, 9, 0).keyText()).isEqualTo("docs/1@9");
    }
}
