package io.volumizer.generators;

import static io.volumizer.schemas.acl.AclInheritance.grant;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.YearMonth;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Permission;

class BankAclLayoutTest {

    private static final GeneratorSettings SETTINGS = GeneratorSettings.of(42, 3000).withStatementsPerAccount(9);
    private static final List<DocumentEvent> DOCUMENTS = new BankGenerator(SETTINGS).documents();

    private static Acl adding(String principal, Permission permission) {
        return new Acl(List.of(grant(principal, permission)), false);
    }

    private static Acl blockingAllBut(String principal) {
        return new Acl(List.of(grant(principal, Permission.READ)), true);
    }

    @Test
    void administratorsManageTheRootAndEachBranchWritesItsState() {
        int states = 0;
        for (DocumentEvent document : DOCUMENTS) {
            if (document.getType().equals("Root")) {
                assertThat(document.getAcl()).isEqualTo(adding(Principals.ADMINISTRATORS, Permission.MANAGE));
            } else if (document.getType().equals("State")) {
                states++;
                assertThat(document.getAcl()).isEqualTo(adding("branch-" + BankGenerator.stateCode(document.getId()),
                        Permission.WRITE));
            }
        }
        assertThat(states).isEqualTo(50);
    }

    @Test
    void eachCustomerReadsTheirFolder() {
        for (DocumentEvent document : DOCUMENTS) {
            if (document.getType().equals("CustomerFolder")) {
                assertThat(document.getAcl()).isEqualTo(adding(
                        "customer-" + document.getProperties().get(BankGenerator.CUSTOMER_NUMBER), Permission.READ));
                assertThat(document.getId()).isEqualTo("cu-" + document.getProperties().get(BankGenerator.CUSTOMER_NUMBER));
            }
        }
    }

    @Test
    void aboutOnePercentOfAccountsAreRestrictedToCompliance() {
        long accounts = 0;
        long restricted = 0;
        for (DocumentEvent document : DOCUMENTS) {
            if (document.getType().equals("Account")) {
                accounts++;
                if (document.getAcl() != null) {
                    restricted++;
                    assertThat(document.getAcl()).isEqualTo(blockingAllBut(BankPrincipals.COMPLIANCE));
                }
            }
        }
        // 6,000 accounts at 1%: 60 expected, with a standard deviation of about 8.
        assertThat(restricted).isBetween(accounts / 200, accounts * 3 / 200);
    }

    @Test
    void statementsOfSixMonthsBeforeTheLastPeriodOrOlderAreReadByAuditorsAlone() {
        YearMonth newestArchived = SETTINGS.lastPeriod().minusMonths(6);
        long archived = 0;
        for (DocumentEvent document : DOCUMENTS) {
            if (document.getType().equals("Statement")) {
                boolean old = !YearMonth.parse(document.getProperties().get("period").toString()).isAfter(newestArchived);
                assertThat(document.getAcl()).as(document.getId()).isEqualTo(old ? blockingAllBut(BankPrincipals.AUDITORS) : null);
                archived += old ? 1 : 0;
            } else if (!document.getType().equals("Account") && document.getBlob() != null) {
                assertThat(document.getAcl()).as("%s inherits", document.getId()).isNull();
            }
        }
        assertThat(archived).isPositive();
    }

    @Test
    void theLayoutIsTheSameInEveryRunOfTheSameSettingsAndDiffersWithTheSeed() {
        List<Acl> again = new BankGenerator(SETTINGS).documents().stream().map(DocumentEvent::getAcl).toList();
        List<Acl> otherSeed = new BankGenerator(GeneratorSettings.of(43, 3000).withStatementsPerAccount(9)).documents()
                .stream().filter(document -> document.getType().equals("Account")).map(DocumentEvent::getAcl).toList();

        assertThat(again).isEqualTo(DOCUMENTS.stream().map(DocumentEvent::getAcl).toList());
        assertThat(otherSeed).isNotEqualTo(DOCUMENTS.stream().filter(document -> document.getType().equals("Account"))
                .map(DocumentEvent::getAcl).toList());
    }
}
