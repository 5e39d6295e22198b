package io.volumizer.generators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.generators.model.Operation;
import io.volumizer.generators.model.Statement;
import io.volumizer.schemas.event.DocumentEvent;

class BankGeneratorTest {

    private static final GeneratorSettings SETTINGS = GeneratorSettings.of(42, 300).withStatementsPerAccount(12);

    private static List<DocumentEvent> range(BankGenerator generator, long from, long to) {
        List<DocumentEvent> documents = new ArrayList<>();
        for (long i = from; i < to; i++) {
            DocumentEvent document = generator.documentAt(i);
            if (document != null) {
                documents.add(document);
            }
        }
        return documents;
    }

    @Test
    void sameSeedGivesIdenticalDocumentsWhateverTheSplit() {
        BankGenerator whole = new BankGenerator(SETTINGS);
        long space = whole.indexSpace();
        List<DocumentEvent> oneRun = range(whole, 0, space);

        List<DocumentEvent> split = new ArrayList<>();
        long[] boundaries = {0, 7, 51, 1000, 1001, space / 2, space - 3, space};
        for (int i = 0; i + 1 < boundaries.length; i++) {
            // A fresh generator per range, as parallel sources have.
            split.addAll(range(new BankGenerator(SETTINGS), boundaries[i], boundaries[i + 1]));
        }

        assertThat(split).isEqualTo(oneRun);
    }

    @Test
    void randomAccessEqualsSequentialGeneration() {
        BankGenerator sequential = new BankGenerator(SETTINGS);
        List<DocumentEvent> all = range(sequential, 0, sequential.indexSpace());
        BankGenerator random = new BankGenerator(SETTINGS);

        for (int probe = 0; probe < 200; probe++) {
            DocumentEvent expected = all.get((probe * 7919) % all.size());
            long index = expected.getOrigin().getIndex();
            assertThat(random.documentAt(index)).isEqualTo(expected);
        }
    }

    @Test
    void differentSeedsGiveDifferentContent() {
        var a = range(new BankGenerator(SETTINGS), 51, 2000);
        var b = range(new BankGenerator(GeneratorSettings.of(43, 300).withStatementsPerAccount(12)), 51, 2000);

        long sameTitles = a.stream().filter(d -> b.stream().anyMatch(e -> e.getTitle().equals(d.getTitle()))).count();
        assertThat(sameTitles).isLessThan(a.size() / 20);
    }

    @Test
    void everyDocumentHasAUniqueIdAndAParentThatExists() {
        List<DocumentEvent> all = range(new BankGenerator(SETTINGS), 0, new BankGenerator(SETTINGS).indexSpace());
        Set<String> ids = new HashSet<>();
        Map<String, Set<String>> childNames = new HashMap<>();
        for (DocumentEvent document : all) {
            assertThat(ids.add(document.getId())).as("duplicate id %s", document.getId()).isTrue();
            if (document.getParentId() != null) {
                assertThat(ids).as("parent of %s comes before it", document.getId()).contains(document.getParentId());
                assertThat(childNames.computeIfAbsent(document.getParentId(), p -> new HashSet<>()).add(document.getName()))
                        .as("name %s unique under %s", document.getName(), document.getParentId()).isTrue();
            }
        }
        assertThat(all.get(0).getParentId()).isNull();
        assertThat(all).filteredOn(d -> d.getType().equals("State")).hasSize(50);
        assertThat(new BankGenerator(SETTINGS).documentCount()).as("counted without generating them").isEqualTo(all.size());
    }

    @Test
    void accountsPerCustomerStayWithinOneToThreeAroundTheConfiguredMean() {
        for (double mean : new double[] {1.0, 1.5, 2.0, 2.7, 3.0}) {
            BankModel model = new BankModel(new GeneratorSettings(7, 20_000, 60, mean,
                    GeneratorSettings.DEFAULT_LAST_PERIOD, "bank"));
            long total = 0;
            for (long c = 0; c < 20_000; c++) {
                int accounts = model.customer(c).accounts();
                assertThat(accounts).isBetween(1, 3);
                total += accounts;
            }
            assertThat(total / 20_000.0).as("mean accounts for %s", mean).isCloseTo(mean, org.assertj.core.data.Offset.offset(0.03));
        }
    }

    @Test
    void statementsAreConsistentAndChainTheirBalances() {
        BankModel model = new BankModel(SETTINGS);
        for (long c = 0; c < 50; c++) {
            Customer customer = model.customer(c);
            for (int a = 0; a < customer.accounts(); a++) {
                Account account = model.account(customer, a);
                assertThat(account.opened()).isBefore(SETTINGS.firstPeriod().atDay(1)).isAfterOrEqualTo(customer.since());
                Statement previous = null;
                for (int s = 0; s < SETTINGS.statementsPerAccount(); s++) {
                    Statement statement = model.statement(account, s);
                    long sum = statement.operations().stream().mapToLong(Operation::amountCents).sum();
                    assertThat(statement.openingCents() + sum).isEqualTo(statement.closingCents());
                    assertThat(statement.operations()).hasSizeBetween(10, 20)
                            .hasSize(model.operationCount(account, s))
                            .allSatisfy(o -> assertThat(o.date().getMonth()).isEqualTo(statement.period().getMonth()));
                    if (previous != null) {
                        assertThat(statement.openingCents()).isEqualTo(previous.closingCents());
                        assertThat(statement.period()).isEqualTo(previous.period().plusMonths(1));
                    }
                    previous = statement;
                }
                assertThat(previous.period()).isEqualTo(SETTINGS.lastPeriod());
            }
        }
    }

    @Test
    void statementEventsCarryTheBalancesOfTheModel() {
        BankGenerator generator = new BankGenerator(SETTINGS);
        DocumentEvent statement = range(generator, 0, generator.indexSpace()).stream()
                .filter(d -> d.getType().equals("Statement")).findFirst().orElseThrow();
        BlobKey key = BlobKey.parse(statement.getBlob().getKey(), "bank");
        BankModel model = generator.model();
        Statement modelled = model.statement(model.account(model.customer(key.customer()), key.account()), key.statement());

        assertThat(statement.getProperties().get("closingBalance")).isEqualTo(modelled.closingCents() / 100.0);
        assertThat(statement.getProperties().get("operations")).isEqualTo((long) modelled.operations().size());
        assertThat(statement.getTitle()).contains(modelled.account().customer().fullName());
    }

    @Test
    void namesLookVariedAcrossManyCustomers() {
        BankModel model = new BankModel(GeneratorSettings.of(1, 100_000));
        Set<String> fullNames = new HashSet<>();
        Set<String> cities = new HashSet<>();
        for (long c = 0; c < 20_000; c++) {
            Customer customer = model.customer(c);
            fullNames.add(customer.fullName());
            cities.add(customer.city() + customer.stateCode());
        }
        assertThat(fullNames.size()).isGreaterThan(19_000);
        assertThat(cities.size()).isGreaterThan(5_000);
    }

    @Test
    void indexOutsideTheRunIsRejected() {
        BankGenerator generator = new BankGenerator(SETTINGS);
        assertThatThrownBy(() -> generator.documentAt(generator.indexSpace())).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> generator.documentAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
