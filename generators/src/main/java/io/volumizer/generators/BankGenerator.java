package io.volumizer.generators;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.generators.internal.Dictionaries;
import io.volumizer.generators.internal.Dictionaries.State;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.generators.render.Renditions;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.event.Permission;

/**
 * A bank's content as document events, by index: {@link #documentAt(long)} computes document <i>i</i> of a run
 * directly from the settings, so a run splits into independent index ranges (parallel sources), resumes at any
 * index and replays identically.
 *
 * <p>The index space: 0 is the repository root, 1..50 the state folders, then each customer owns a fixed-size slot:
 * its folder, its ID card, and for each of 3 possible accounts the account, its opening letter and its statements.
 * Slots of accounts a customer does not have are empty ({@link #documentAt(long)} returns {@code null}).
 *
 * <p>The ACL layout ({@link BankPrincipals}): administrators manage the root; each state's branch group may write its
 * state's folder; each customer's user may read their folder; about 1% of accounts ({@link BankModel#restricted}) block
 * inheritance and are read by compliance alone; statements in the archive ({@link GeneratorSettings#archived}) block
 * inheritance and are read by auditors alone. Other documents have no ACL of their own.
 *
 * <p>Not thread-safe (it caches the last customer, which consecutive indices share): one instance per thread.
 */
public final class BankGenerator {

    public static final String ROOT_ID = "root";
    /** The property every document of a customer carries its customer's number in. */
    public static final String CUSTOMER_NUMBER = "customerNumber";
    /** The property every document of a state or of a customer carries its state code in. */
    public static final String STATE = "state";
    private static final String STATE_ID_PREFIX = "st-";
    private static final Instant REPOSITORY_CREATED = Instant.parse("1995-01-01T00:00:00Z");

    private final GeneratorSettings settings;
    private final BankModel model;
    private final List<State> states = Dictionaries.get().states;
    private final int headerLength;
    private final int accountSlot;
    private final int customerSlot;
    private Customer cachedCustomer;
    private final Account[] cachedAccounts = new Account[3];

    public BankGenerator(GeneratorSettings settings) {
        this.settings = settings;
        this.model = new BankModel(settings);
        this.headerLength = 1 + states.size();
        this.accountSlot = 2 + settings.statementsPerAccount();
        this.customerSlot = 2 + 3 * accountSlot;
    }

    public GeneratorSettings settings() {
        return settings;
    }

    public BankModel model() {
        return model;
    }

    /** One past the last index of the run. */
    public long indexSpace() {
        return headerLength + settings.customers() * customerSlot;
    }

    /** Index of the first document of a customer (its folder): ranges split on these keep a customer together. */
    public long firstIndexOf(long customer) {
        return headerLength + customer * customerSlot;
    }

    /** How many documents the run has: its index space less the slots of accounts customers do not have. */
    public long documentCount() {
        long count = headerLength;
        for (long customer = 0; customer < settings.customers(); customer++) {
            count += documentCount(customer);
        }
        return count;
    }

    /** How many documents a customer has: its folder, its ID card, and its accounts' documents. */
    public long documentCount(long customer) {
        return 2 + (long) model.customer(customer).accounts() * accountSlot;
    }

    /** Every document of the run, in index order (parents before their children): for tests and baselines. */
    public List<DocumentEvent> documents() {
        List<DocumentEvent> documents = new ArrayList<>();
        for (long index = 0; index < indexSpace(); index++) {
            DocumentEvent document = documentAt(index);
            if (document != null) {
                documents.add(document);
            }
        }
        return documents;
    }

    /** The document at {@code index}, or {@code null} where the slot is empty. */
    public DocumentEvent documentAt(long index) {
        if (index < 0 || index >= indexSpace()) {
            throw new IndexOutOfBoundsException("index " + index + " outside 0.." + (indexSpace() - 1));
        }
        if (index == 0) {
            return folder(index, ROOT_ID, null, "Root", settings.repository(), "Repository " + settings.repository(),
                    REPOSITORY_CREATED, new LinkedHashMap<>(), granting(Principals.ADMINISTRATORS, Permission.MANAGE));
        }
        if (index < headerLength) {
            State state = states.get((int) index - 1);
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put(STATE, state.code());
            properties.put("stateName", state.name());
            return folder(index, stateId(state.code()), ROOT_ID, "State", state.name(), state.name(),
                    REPOSITORY_CREATED, properties, granting(BankPrincipals.branch(state.code()), Permission.WRITE));
        }
        long customerIndex = (index - headerLength) / customerSlot;
        int offset = (int) ((index - headerLength) % customerSlot);
        Customer customer = customer(customerIndex);
        if (offset == 0) {
            return customerFolder(index, customer);
        }
        if (offset == 1) {
            return idCard(index, customer);
        }
        int accountIndex = (offset - 2) / accountSlot;
        if (accountIndex >= customer.accounts()) {
            return null;
        }
        Account account = account(customer, accountIndex);
        int inAccount = (offset - 2) % accountSlot;
        if (inAccount == 0) {
            return accountFolder(index, account);
        }
        if (inAccount == 1) {
            return openingLetter(index, account);
        }
        return statement(index, account, inAccount - 2);
    }

    /** Renders a blob of this run from its key. */
    public byte[] blob(String key) {
        return Renditions.render(BlobKey.parse(key, settings.repository()));
    }

    public static String stateId(String code) {
        return STATE_ID_PREFIX + code;
    }

    /** The state code of a state folder's id: the inverse of {@link #stateId}. */
    public static String stateCode(String stateId) {
        if (!stateId.startsWith(STATE_ID_PREFIX)) {
            throw new IllegalArgumentException("not a state folder id: " + stateId);
        }
        return stateId.substring(STATE_ID_PREFIX.length());
    }

    public static String customerId(Customer customer) {
        return "cu-" + customer.number();
    }

    public static String accountId(Account account) {
        return "ac-" + account.number();
    }

    /** The id of an account's statement of {@code period}. */
    public static String statementId(Account account, YearMonth period) {
        return accountId(account) + "-st-" + period;
    }

    private Customer customer(long index) {
        if (cachedCustomer == null || cachedCustomer.index() != index) {
            cachedCustomer = model.customer(index);
            cachedAccounts[0] = cachedAccounts[1] = cachedAccounts[2] = null;
        }
        return cachedCustomer;
    }

    private Account account(Customer customer, int index) {
        if (cachedAccounts[index] == null) {
            cachedAccounts[index] = model.account(customer, index);
        }
        return cachedAccounts[index];
    }

    private DocumentEvent customerFolder(long index, Customer customer) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(CUSTOMER_NUMBER, customer.number());
        properties.put("firstName", customer.firstName());
        properties.put("lastName", customer.lastName());
        properties.put("birthDate", customer.birthDate().toString());
        properties.put("street", customer.street());
        properties.put("city", customer.city());
        properties.put(STATE, customer.stateCode());
        properties.put("zip", customer.zip());
        properties.put("email", customer.email());
        properties.put("phone", customer.phone());
        properties.put("customerSince", customer.since().toString());
        properties.put("accounts", (long) customer.accounts());
        return folder(index, customerId(customer), stateId(customer.stateCode()), "CustomerFolder",
                customer.lastName() + ", " + customer.firstName() + " (" + customer.number() + ")",
                customer.fullName(), instant(customer.since()), properties,
                granting(BankPrincipals.customer(customer.number()), Permission.READ));
    }

    private DocumentEvent idCard(long index, Customer customer) {
        Map<String, Object> properties = customerProperties(customer);
        properties.put("cardNumber", "ID" + customer.number());
        properties.put("expiryDate", customer.since().plusYears(30).toString());
        BlobKey key = new BlobKey(settings, BlobKey.Kind.IDCARD, customer.index(), 0, 0);
        return document(index, customerId(customer) + "-idcard", customerId(customer), "IdCard", "id-card.jpg",
                "ID card — " + customer.fullName(), instant(customer.since()), properties, key, null);
    }

    private DocumentEvent accountFolder(long index, Account account) {
        Customer customer = account.customer();
        Map<String, Object> properties = accountProperties(account);
        properties.put("accountType", account.type());
        properties.put("openingDate", account.opened().toString());
        properties.put("currency", account.currency());
        return folder(index, accountId(account), customerId(customer), "Account",
                account.type() + " " + account.number(), account.type() + " account " + account.number() + " — "
                        + customer.fullName(), instant(account.opened()), properties,
                model.restricted(account) ? onlyReading(BankPrincipals.COMPLIANCE) : null);
    }

    private DocumentEvent openingLetter(long index, Account account) {
        Customer customer = account.customer();
        Map<String, Object> properties = accountProperties(account);
        properties.put("letterDate", account.opened().toString());
        BlobKey key = new BlobKey(settings, BlobKey.Kind.LETTER, customer.index(), account.index(), 0);
        return document(index, accountId(account) + "-letter", accountId(account), "OpeningLetter",
                "opening-letter.docx", "Account opening letter " + account.number() + " — " + customer.fullName(),
                instant(account.opened()), properties, key, null);
    }

    private DocumentEvent statement(long index, Account account, int statementIndex) {
        Customer customer = account.customer();
        var period = model.period(statementIndex);
        Map<String, Object> properties = accountProperties(account);
        properties.put("period", period.toString());
        properties.put("periodStart", period.atDay(1).toString());
        properties.put("periodEnd", period.atEndOfMonth().toString());
        properties.put("openingBalance", model.balanceCents(account, statementIndex) / 100.0);
        properties.put("closingBalance", model.balanceCents(account, statementIndex + 1) / 100.0);
        properties.put("operations", (long) model.operationCount(account, statementIndex));
        properties.put("currency", account.currency());
        BlobKey key = new BlobKey(settings, BlobKey.Kind.STATEMENT, customer.index(), account.index(), statementIndex);
        return document(index, statementId(account, period), accountId(account), "Statement",
                "statement-" + period + ".pdf", "Statement " + period + " — " + account.type() + " "
                        + account.number() + " — " + customer.fullName(),
                instant(period.plusMonths(1).atDay(1)), properties, key,
                settings.archived(period) ? onlyReading(BankPrincipals.AUDITORS) : null);
    }

    /** What every document of a customer's starts with: its customer, then the state (routing reads both). */
    private static Map<String, Object> customerProperties(Customer customer) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(CUSTOMER_NUMBER, customer.number());
        properties.put(STATE, customer.stateCode());
        return properties;
    }

    /** What every document of an account starts with, in this order: the generated bytes depend on it. */
    private static Map<String, Object> accountProperties(Account account) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("accountNumber", account.number());
        properties.putAll(customerProperties(account.customer()));
        return properties;
    }

    private DocumentEvent folder(long index, String id, String parentId, String type, String name, String title,
            Instant created, Map<String, Object> properties, Acl acl) {
        return document(index, id, parentId, type, name, title, created, properties, null, acl);
    }

    private DocumentEvent document(long index, String id, String parentId, String type, String name, String title,
            Instant created, Map<String, Object> properties, BlobKey blob, Acl acl) {
        BlobRef blobRef = blob == null ? null : BlobRef.newBuilder().setKey(blob.format())
                .setMimeType(blob.kind().mimeType).setFilename(name).build();
        return DocumentEvent.newBuilder()
                .setOperation(Operation.CREATE).setRepository(settings.repository()).setId(id).setParentId(parentId)
                .setType(type).setName(name).setTitle(title).setCreated(created).setModified(created)
                .setProperties(properties).setBlob(blobRef).setEventTime(created).setVersion(1L)
                .setOrigin(Origin.newBuilder().setSource("generator").setSeed(settings.seed()).setIndex(index).build())
                .setAcl(acl).build();
    }

    /** An ACL that adds a grant to what the document inherits. */
    private static Acl granting(String principal, Permission permission) {
        return new Acl(List.of(AclInheritance.grant(principal, permission)), false);
    }

    /** An ACL that blocks inheritance: only {@code principal} may read the document (and administrators, always). */
    private static Acl onlyReading(String principal) {
        return new Acl(List.of(AclInheritance.grant(principal, Permission.READ)), true);
    }

    private static Instant instant(LocalDate date) {
        return date.atStartOfDay().toInstant(ZoneOffset.UTC);
    }
}
