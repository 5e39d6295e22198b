package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.loadtest.LoadUsers.Kind;
import io.volumizer.loadtest.LoadUsers.LoadUser;
import io.volumizer.schemas.event.DocumentEvent;

class FeedersTest {

    private static final GeneratorSettings GENERATOR = new GeneratorSettings(9, 300, 12, 2.0,
            GeneratorSettings.DEFAULT_LAST_PERIOD, "bank");
    private static final List<LoadUser> USERS = LoadUsers.of(GENERATOR);
    private static final ReadableDocuments READABLE = ReadableDocuments.of(GENERATOR);

    private static List<Map<String, Object>> draw(Set<Kind> kinds, long seed, int count) {
        Iterator<Map<String, Object>> feeder = Feeders.users(GENERATOR, USERS, kinds, seed);
        List<Map<String, Object>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(feeder.next());
        }
        return records;
    }

    @SuppressWarnings("unchecked")
    private static List<String> principals(Map<String, Object> record) {
        return (List<String>) record.get("principals");
    }

    @Test
    void theSameDrawSeedFeedsTheSameUsersAndDocuments() {
        assertThat(draw(Feeders.NAVIGATING, 5, 200)).isEqualTo(draw(Feeders.NAVIGATING, 5, 200))
                .isNotEqualTo(draw(Feeders.NAVIGATING, 6, 200));
    }

    @Test
    void everyUserOfTheThreeKindsTakesATurn() {
        List<Map<String, Object>> records = draw(EnumSet.allOf(Kind.class), 1, USERS.size());
        Set<String> users = new HashSet<>();
        Map<String, Integer> kinds = new HashMap<>();
        records.forEach(record -> {
            users.add((String) record.get("user"));
            kinds.merge((String) record.get("kind"), 1, Integer::sum);
        });
        assertThat(users).hasSizeGreaterThanOrEqualTo(100);
        assertThat(kinds.keySet()).containsExactlyInAnyOrder("STAFF", "CUSTOMER", "AUDITOR");
        assertThat(kinds.get("CUSTOMER")).isEqualTo(50);
        assertThat(kinds.get("AUDITOR")).isEqualTo(3);
    }

    @Test
    void navigatorsAreFedTheirOwnDocumentsWhichTheyMayRead() {
        Map<String, DocumentEvent> documents = new HashMap<>();
        new BankGenerator(GENERATOR).documents().forEach(document -> documents.put(document.getId(), document));
        for (Map<String, Object> record : draw(Feeders.NAVIGATING, 1, 500)) {
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
            if (record.get("kind").equals("CUSTOMER")) {
                assertThat(record.get("user")).isEqualTo(BankPrincipals.customer(
                        (String) customer.getProperties().get(BankGenerator.CUSTOMER_NUMBER)));
            } else {
                assertThat(principals(record)).contains(BankPrincipals.branch((String) record.get("stateCode")));
            }
            for (DocumentEvent fed : List.of(customer, account, statement)) {
                String json = "{\"id\":\"" + fed.getId() + "\"}";
                assertThat(READABLE.forbidden(json, principals(record))).as(record.get("user") + " reads " + fed.getId())
                        .isEmpty();
            }
        }
    }

    @Test
    void writersAreTheBranchesStaff() {
        assertThat(draw(Feeders.WRITING, 2, 300)).extracting(record -> record.get("kind")).containsOnly("STAFF");
    }
}
