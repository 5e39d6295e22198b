package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

class FeedersTest {

    private static final GeneratorSettings GENERATOR = new GeneratorSettings(9, 30, 12, 2.0,
            GeneratorSettings.DEFAULT_LAST_PERIOD, "bank");
    private static final LoadSettings SETTINGS = new LoadSettings("http://localhost", "t", GENERATOR, 1,
            Duration.ofSeconds(1), Duration.ofSeconds(1), 50, 1, "");

    private static List<Map<String, Object>> draw(long seed, int count) {
        Iterator<Map<String, Object>> feeder = Feeders.customers(SETTINGS, seed);
        List<Map<String, Object>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(feeder.next());
        }
        return records;
    }

    @Test
    void theSameDrawSeedFeedsTheSameCustomers() {
        assertThat(draw(5, 50)).isEqualTo(draw(5, 50)).isNotEqualTo(draw(6, 50));
    }

    @Test
    void everyFedIdIsADocumentTheGeneratorMakesWithItsParents() {
        Map<String, DocumentEvent> documents = new java.util.HashMap<>();
        new BankGenerator(GENERATOR).documents().forEach(document -> documents.put(document.getId(), document));
        for (Map<String, Object> record : draw(1, 200)) {
            DocumentEvent customer = documents.get((String) record.get("customerId"));
            DocumentEvent account = documents.get((String) record.get("accountId"));
            DocumentEvent statement = documents.get((String) record.get("statementId"));
            assertThat(customer.getType()).isEqualTo("CustomerFolder");
            assertThat(account.getParentId()).isEqualTo(customer.getId());
            assertThat(statement.getType()).isEqualTo("Statement");
            assertThat(statement.getParentId()).isEqualTo(account.getId());
            assertThat(customer.getProperties().get("lastName")).isEqualTo(record.get("lastName"));
            assertThat(customer.getProperties().get("city")).isEqualTo(record.get("city"));
            assertThat(customer.getParentId()).isEqualTo(BankGenerator.stateId((String) record.get("stateCode")));
        }
    }
}
