package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;

/** The load tests' check: an answer holding a document the user may not read is caught, one without is let pass. */
class ReadableDocumentsTest {

    private static final GeneratorSettings RUN = new GeneratorSettings(3, 40, 12, 2.0,
            GeneratorSettings.DEFAULT_LAST_PERIOD, "bank");
    private static final ReadableDocuments READABLE = ReadableDocuments.of(RUN);
    private static final Customer FIRST = new BankModel(RUN).customer(0);
    private static final List<String> CUSTOMER = List.of(BankPrincipals.customer(FIRST.number()), Principals.EVERYONE);
    private static final List<String> STAFF = List.of("staff-x-1", BankPrincipals.branch(FIRST.stateCode()), Principals.EVERYONE);
    private static final List<String> AUDITOR = List.of("auditor-1", BankPrincipals.AUDITORS, Principals.EVERYONE);

    private static String document(String id) {
        return "{\"id\":\"" + id + "\",\"type\":\"x\",\"properties\":{\"state\":\"CA\"}}";
    }

    /** A search answer as the API writes it, with these hits. */
    private static String search(String... ids) {
        StringBuilder hits = new StringBuilder();
        for (String id : ids) {
            hits.append(hits.isEmpty() ? "" : ",").append(document(id));
        }
        return "{\"total\":{\"value\":" + ids.length + "},\"hits\":[" + hits + "],\"shards\":{\"total\":1},"
                + "\"aggs\":{\"type\":[{\"key\":\"Statement\",\"count\":1}]}}";
    }

    private static DocumentEvent statement(boolean archived) {
        BankGenerator generator = new BankGenerator(RUN);
        for (DocumentEvent document : generator.documents()) {
            if (document.getType().equals("Statement") && document.getId().startsWith("ac-" + FIRST.number())
                    && RUN.archived(java.time.YearMonth.parse((String) document.getProperties().get("period"))) == archived) {
                return document;
            }
        }
        throw new AssertionError("no statement archived=" + archived);
    }

    @Test
    void aCustomersOwnFolderAndCurrentStatementPass() {
        String folder = BankGenerator.customerId(FIRST);
        assertThat(READABLE.forbidden(document(folder), CUSTOMER)).isEmpty();
        assertThat(READABLE.forbidden(search(folder, statement(false).getId()), CUSTOMER)).isEmpty();
        assertThat(READABLE.forbidden(search(folder, statement(false).getId()), STAFF)).isEmpty();
    }

    @Test
    void aForbiddenDocumentAmongAllowedOnesFails() {
        String otherCustomer = BankGenerator.customerId(new BankModel(RUN).customer(1));
        assertThat(READABLE.forbidden(search(BankGenerator.customerId(FIRST), otherCustomer), CUSTOMER))
                .singleElement().asString().startsWith(otherCustomer);
        assertThat(READABLE.forbidden("{\"parentId\":\"x\",\"children\":[" + document(BankGenerator.ROOT_ID) + "]}", STAFF))
                .hasSize(1);
    }

    @Test
    void theArchiveIsTheAuditorsAlone() {
        String archived = statement(true).getId();
        assertThat(READABLE.forbidden(document(archived), AUDITOR)).isEmpty();
        assertThat(READABLE.forbidden(document(archived), CUSTOMER)).hasSize(1);
        assertThat(READABLE.forbidden(document(archived), STAFF)).hasSize(1);
        assertThat(READABLE.forbidden(document(statement(false).getId()), AUDITOR)).hasSize(1);
    }

    @Test
    void anAncestorTheUserMayNotReadFails() {
        String answer = "{\"id\":\"" + statement(false).getId() + "\",\"ancestors\":[{\"id\":\"" + BankGenerator.ROOT_ID
                + "\"},{\"id\":\"" + BankGenerator.stateId(FIRST.stateCode()) + "\"}]}";
        assertThat(READABLE.forbidden(answer, CUSTOMER)).hasSize(2);
        assertThat(READABLE.forbidden(answer, STAFF)).singleElement().asString().startsWith(BankGenerator.ROOT_ID);
    }

    @Test
    void aCreatedDocumentReadsAsItsParentAndOneOutsideTheLayoutFails() {
        String account = "ac-" + FIRST.number() + "-1";
        String note = "{\"id\":\"note-1\",\"parentId\":\"" + account + "\"}";
        assertThat(READABLE.forbidden(note, STAFF)).isEmpty();
        assertThat(READABLE.forbidden(note, AUDITOR)).hasSize(1);
        assertThat(READABLE.forbidden("{\"id\":\"elsewhere\",\"parentId\":\"nowhere\"}", STAFF)).hasSize(1);
        // A children page's items name no parent: the page does.
        String page = "{\"parentId\":\"" + account + "\",\"children\":[{\"id\":\"note-2\",\"name\":\"n\"}]}";
        assertThat(READABLE.forbidden(page, STAFF)).isEmpty();
        assertThat(READABLE.forbidden(page, AUDITOR)).hasSize(1);
    }

    @Test
    void administratorsReadEverythingAndFilesHoldNoDocument() {
        assertThat(READABLE.forbidden(document(BankGenerator.ROOT_ID), List.of("admin", Principals.ADMINISTRATORS))).isEmpty();
        assertThat(READABLE.forbidden("%PDF-1.7 {\"id\":\"root\"}", CUSTOMER)).isEmpty();
    }
}
