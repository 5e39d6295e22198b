package io.volumizer.infra.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.h2.mvstore.WriteBuffer;
import org.junit.jupiter.api.Test;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;

class ComparableKeyTypeTest {

    private final ComparableKeyH2Backend.KeyType keys = new ComparableKeyH2Backend.KeyType();

    @Test
    void comparesElementByElementInMongoDBsOrder() {
        assertThat(keys.compare(new KeyValue("p1", "a.pdf"), new KeyValue("p1", "b.pdf"))).isNegative();
        assertThat(keys.compare(new KeyValue("p2", "a.pdf"), new KeyValue("p1", "b.pdf"))).isPositive();
        assertThat(keys.compare(new KeyValue("p1", "a.pdf"), new KeyValue("p1", "a.pdf"))).isZero();
        assertThat(keys.compare(new KeyValue(1), new KeyValue(1.0))).as("numbers compare by value").isZero();
        assertThat(keys.compare(new KeyValue(2), new KeyValue("1"))).as("numbers before strings").isNegative();
        assertThat(keys.compare(new KeyValue((Object) null), new KeyValue(0))).as("null first").isNegative();
        assertThat(keys.compare(new KeyValue(new Document("a", 1)), new KeyValue(new Document("a", 2)))).isNegative();
    }

    @Test
    void storesKeysAsTheyWere() {
        KeyValue key = new KeyValue("p1", "a.pdf", 3L);
        WriteBuffer buffer = new WriteBuffer();
        keys.write(buffer, key);
        ByteBuffer written = buffer.getBuffer();
        written.flip();
        assertThat(keys.read(written)).isEqualTo(key);
    }
}
