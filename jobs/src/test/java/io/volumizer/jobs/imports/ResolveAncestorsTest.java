package io.volumizer.jobs.imports;

import static io.volumizer.jobs.testing.Documents.document;
import static io.volumizer.jobs.testing.Documents.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.options.Options;
import io.volumizer.options.steps.ImportSettings;
import io.volumizer.jobs.testing.Documents;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.mongodb.Ancestry;

class ResolveAncestorsTest {

    private static final int MAX_PARALLELISM = 128;

    /** The repository database as the lookup sees it: a map, filled by the test when a parent "is written". */
    static final Map<String, Ancestry> STORED = new ConcurrentHashMap<>();
    static final AtomicInteger LOOKUPS = new AtomicInteger();

    static final class MapLookup implements ParentLookup {
        @Override
        public void open(RuntimeContext context) {
        }

        @Override
        public Optional<Ancestry> find(String repository, String id) {
            LOOKUPS.incrementAndGet();
            return Optional.ofNullable(STORED.get(id));
        }

        @Override
        public void close() {
        }
    }

    /** What the account parents of these tests have as their stored effective ACL. */
    private static final EffectiveAcl STORED_ACL = new EffectiveAcl(List.of("administrators", "branch-CA"),
            List.of("administrators", "branch-CA"), List.of("administrators"));

    private long offset;

    /** A parent as MongoDB has it, with {@link #STORED_ACL}. */
    private static Ancestry stored(List<String> ids, String path) {
        return new Ancestry(ids, path, STORED_ACL, 1);
    }

    private static Acl acl(boolean block, String principal, Permission permission) {
        return new Acl(List.of(AclInheritance.grant(principal, permission)), block);
    }

    private void send(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness, String id,
            String parentId, Acl acl) throws Exception {
        DocumentEvent document = document(id, parentId, id);
        document.setAcl(acl);
        harness.processElement(record(document, offset++), 0);
    }

    private static EffectiveAcl effectiveAcl(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness,
            String id) {
        return harness.extractOutputValues().stream().filter(e -> e.getDocument().getId().equals(id)).findFirst()
                .orElseThrow().getEffectiveAcl();
    }

    /**
     * Moves processing time forward a millisecond at a time, as it passes in a running job: each timer fires at its
     * own time, not all at once at the end of a jump.
     */
    private static void advance(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness,
            long from, long to) throws Exception {
        for (long time = from + 1; time <= to; time++) {
            harness.setProcessingTime(time);
        }
    }

    @BeforeEach
    void reset() {
        STORED.clear();
        LOOKUPS.set(0);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness(boolean keyedByParent)
            throws Exception {
        return harness(keyedByParent, 10_000);
    }

    /** One subtask of parallelism 1, alone in its job: every key, and so every parent, is this subtask's. */
    private static KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness(boolean keyedByParent,
            int resolvedFolders) throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(operator(keyedByParent, resolvedFolders),
                keyedByParent ? RawRecord::keyText : RawRecord::position, Types.STRING);
        harness.setProcessingTime(0);
        return harness;
    }

    private static KeyedProcessOperator<String, RawRecord, ImportedEvent> operator(boolean keyedByParent,
            int resolvedFolders) {
        ImportSettings settings = Options.defaults(new ImportSettings());
        settings.partitionBy = keyedByParent ? ImportSettings.PartitionBy.parent : ImportSettings.PartitionBy.document;
        settings.parentRetryInterval = Duration.ofMillis(100);
        settings.parentCheckInterval = Duration.ofMillis(20);
        settings.parentRetryMaxInterval = Duration.ofMillis(400);
        settings.parentWaitCheckpoints = 2;
        settings.parentWaitMin = Duration.ofMillis(50);
        settings.parentCacheTtl = Duration.ofHours(1);
        settings.resolvedFolderCache = resolvedFolders;
        return new KeyedProcessOperator<>(new ResolveAncestors(Documents::fromAvro, new MapLookup(), settings));
    }

    /** A subtask of the import, in its job's environment. */
    private static KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> subtask(MockEnvironment job)
            throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(operator(true, 10_000), RawRecord::keyText,
                Types.STRING, job);
        harness.setProcessingTime(0);
        return harness;
    }

    private static MockEnvironment environment(JobID job, int subtask) {
        return new MockEnvironmentBuilder().setJobID(job).setParallelism(2).setMaxParallelism(MAX_PARALLELISM)
                .setSubtaskIndex(subtask).build();
    }

    /** An id, made of {@code prefix} and a number, whose key is handled by {@code subtask} of 2. */
    private static String idOfSubtask(String prefix, int subtask) {
        for (int i = 0; ; i++) {
            if (KeyGroupRangeAssignment.assignKeyToParallelOperator(prefix + i, MAX_PARALLELISM, 2) == subtask) {
                return prefix + i;
            }
        }
    }

    /** A checkpoint's barrier passes the subtask, and the checkpoint completes. */
    private static void checkpoint(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness,
            long id) throws Exception {
        harness.snapshot(id, id);
        harness.notifyOfCompletedCheckpoint(id);
    }

    /**
     * After the watermark has passed a parked record: the checkpoints that confirm it complete, then the firings after
     * them run, from {@code now} on.
     */
    private static void expire(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness,
            long now) throws Exception {
        for (long id = 1; id <= 3; id++) {
            checkpoint(harness, 100 + id);
        }
        advance(harness, now, now + 100);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness() throws Exception {
        return harness(true);
    }

    private void send(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness, String id,
            String parentId) throws Exception {
        harness.processElement(record(document(id, parentId, id + ".pdf"), offset++), 0);
    }

    private static List<String> ids(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness) {
        return harness.extractOutputValues().stream().map(e -> e.getDocument().getId()).toList();
    }

    private static List<DeadLetter> deadLetters(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness) {
        var letters = harness.getSideOutput(DeadLetters.TAG);
        return letters == null ? List.of() : letters.stream().map(r -> r.getValue()).toList();
    }

    @Test
    void childrenOfOneParentLookItUpOnceThenHitTheCache() throws Exception {
        STORED.put("account", stored(List.of("root", "customer", "account"), "/bank/c/a"));
        try (var harness = harness()) {
            harness.open();
            for (int i = 0; i < 30; i++) {
                send(harness, "s" + i, "account");
            }
            assertThat(LOOKUPS.get()).as("a parent not cached is looked up one retry interval later").isZero();
            harness.setProcessingTime(100);
            for (int i = 30; i < 60; i++) {
                send(harness, "s" + i, "account");
            }

            List<ImportedEvent> out = harness.extractOutputValues();
            assertThat(out).hasSize(60);
            assertThat(ids(harness).subList(0, 3)).as("in arrival order").containsExactly("s0", "s1", "s2");
            assertThat(out.get(7).getAncestorIds()).containsExactly("root", "customer", "account");
            assertThat(out.get(7).getPath()).isEqualTo("/bank/c/a/s7.pdf");
            assertThat(LOOKUPS.get()).isEqualTo(1);
        }
    }

    @Test
    void effectiveAclsAreInheritedFromTheRootDownUntilABlock() throws Exception {
        try (var harness = harness()) {
            harness.open();
            send(harness, "root", null, acl(false, "administrators", Permission.MANAGE));
            advance(harness, 0, 100);
            send(harness, "state", "root", acl(false, "branch-CA", Permission.WRITE));
            send(harness, "customer", "state", acl(false, "customer-1", Permission.READ));
            send(harness, "account", "customer", null);
            send(harness, "restricted", "customer", acl(true, "compliance", Permission.READ));
            send(harness, "statement", "account", null);
            send(harness, "archived", "account", acl(true, "auditors", Permission.READ));
            send(harness, "restricted-statement", "restricted", null);
            advance(harness, 100, 200);

            assertThat(ids(harness)).hasSize(8);
            assertThat(effectiveAcl(harness, "root")).isEqualTo(new EffectiveAcl(List.of("administrators"),
                    List.of("administrators"), List.of("administrators")));
            EffectiveAcl customer = new EffectiveAcl(List.of("administrators", "branch-CA", "customer-1"),
                    List.of("administrators", "branch-CA"), List.of("administrators"));
            assertThat(effectiveAcl(harness, "customer")).isEqualTo(customer);
            assertThat(effectiveAcl(harness, "account")).isEqualTo(customer);
            assertThat(effectiveAcl(harness, "statement")).isEqualTo(customer);
            EffectiveAcl compliance = new EffectiveAcl(List.of("compliance"), List.of(), List.of());
            assertThat(effectiveAcl(harness, "restricted")).isEqualTo(compliance);
            assertThat(effectiveAcl(harness, "restricted-statement")).as("below a block").isEqualTo(compliance);
            assertThat(effectiveAcl(harness, "archived")).isEqualTo(new EffectiveAcl(List.of("auditors"), List.of(), List.of()));
            assertThat(LOOKUPS.get()).isZero();
        }
    }

    @Test
    void aChildOfAParentReadFromMongoDBInheritsTheEffectiveAclStoredWithIt() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        STORED.put("old", new Ancestry(List.of("root", "old"), "/bank/o", null, 1));
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "account", null);
            send(harness, "s2", "account", acl(false, "auditors", Permission.READ));
            send(harness, "o1", "old", acl(false, "auditors", Permission.READ));
            send(harness, "o2", "old", null);
            harness.setProcessingTime(100);

            assertThat(LOOKUPS.get()).isEqualTo(2);
            assertThat(effectiveAcl(harness, "s1")).isEqualTo(STORED_ACL);
            assertThat(effectiveAcl(harness, "s2").getRead()).containsExactly("administrators", "branch-CA", "auditors");
            assertThat(effectiveAcl(harness, "s2").getWrite()).isEqualTo(STORED_ACL.getWrite());
            assertThat(effectiveAcl(harness, "o1")).as("a parent stored before ACLs passes nothing on")
                    .isEqualTo(new EffectiveAcl(List.of("auditors"), List.of(), List.of()));
            assertThat(effectiveAcl(harness, "o2")).isEqualTo(AclInheritance.none());
        }
    }

    /** What an ACL change's propagation sends: the document again, made against {@code parentVersion} of its parent. */
    private void sendMadeAgainst(KeyedOneInputStreamOperatorTestHarness<String, RawRecord, ImportedEvent> harness,
            String id, String parentId, long version, long parentVersion) throws Exception {
        DocumentEvent document = document(id, parentId, id + ".pdf");
        document.setVersion(version);
        document.setParentVersion(parentVersion);
        harness.processElement(record(document, offset++), 0);
    }

    private static final EffectiveAcl CHANGED_ACL = new EffectiveAcl(List.of("administrators", "compliance"),
            List.of("administrators"), List.of("administrators"));

    @Test
    void aChangeMadeAgainstANewerParentThanTheCachedOneWaitsForItThenRefreshesTheCacheForItsSiblings() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "account", null);
            harness.setProcessingTime(100);
            assertThat(LOOKUPS.get()).isEqualTo(1);

            sendMadeAgainst(harness, "s1", "account", 2, 2);
            send(harness, "s2", "account", null);
            advance(harness, 100, 199);
            assertThat(ids(harness)).as("parked behind the change, in order: the cache holds version 1").containsExactly("s1");

            harness.setProcessingTime(200);
            assertThat(ids(harness)).as("MongoDB still has version 1: it waits on").containsExactly("s1");
            assertThat(LOOKUPS.get()).isEqualTo(2);

            STORED.put("account", new Ancestry(List.of("root", "account"), "/bank/a", CHANGED_ACL, 2));
            advance(harness, 200, 600);
            assertThat(ids(harness)).containsExactly("s1", "s1", "s2");
            assertThat(harness.extractOutputValues().get(1).getEffectiveAcl()).isEqualTo(CHANGED_ACL);
            assertThat(harness.extractOutputValues().get(2).getEffectiveAcl())
                    .as("a sibling after the change: the cache now holds version 2").isEqualTo(CHANGED_ACL);
            assertThat(LOOKUPS.get()).isEqualTo(3);

            send(harness, "s3", "account", null);
            assertThat(harness.extractOutputValues().get(3).getEffectiveAcl()).isEqualTo(CHANGED_ACL);
            assertThat(LOOKUPS.get()).as("served by the refreshed cache").isEqualTo(3);
            assertThat(harness.getSideOutput(DeadLetters.TAG)).isNullOrEmpty();
        }
    }

    @Test
    void aChangeMadeAgainstAFolderTheJobHasJustRecomputedIsServedByTheResolvedFolders() throws Exception {
        STORED.put("customer", stored(List.of("root", "customer"), "/bank/c"));
        STORED.put("account", stored(List.of("root", "customer", "account"), "/bank/c/a"));
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "account", null);
            harness.setProcessingTime(100);
            send(harness, "account", "customer", null);
            harness.setProcessingTime(200);
            assertThat(LOOKUPS.get()).isEqualTo(2);

            DocumentEvent changed = document("account", "customer", "account.pdf");
            changed.setVersion(2L);
            changed.setAcl(acl(true, "compliance", Permission.READ));
            harness.processElement(record(changed, offset++), 0);
            sendMadeAgainst(harness, "s1", "account", 2, 2);

            assertThat(ids(harness)).containsExactly("s1", "account", "account", "s1");
            assertThat(harness.extractOutputValues().get(3).getEffectiveAcl().getRead())
                    .as("the account's version 2, which blocks inheritance").containsExactly("compliance");
            assertThat(LOOKUPS.get()).as("no lookup: the job resolved version 2 itself").isEqualTo(2);
        }
    }

    @Test
    void aChangeWhoseParentVersionNeverComesIsDeadLetteredNamingTheVersion() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        try (var harness = harness()) {
            harness.open();
            sendMadeAgainst(harness, "s1", "account", 2, 5);
            advance(harness, 0, 1200);
            harness.processWatermark(1);
            expire(harness, 1200);
            assertThat(ids(harness)).isEmpty();
            assertThat(deadLetters(harness)).singleElement().satisfies(letter -> assertThat(letter.getReason())
                    .contains("parent account at version 5 or newer (found 1) not found"));
        }
    }

    @Test
    void aRootNeedsNoLookupAndPrimesTheCacheForItsChildren() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            send(harness, "state", "root");
            harness.setProcessingTime(100);
            send(harness, "state2", "root");

            assertThat(harness.extractOutputValues()).extracting(ImportedEvent::getPath)
                    .containsExactly("/bank", "/bank/state.pdf", "/bank/state2.pdf");
            assertThat(LOOKUPS.get()).isZero();
        }
    }

    @Test
    void aResolvedFolderServesItsChildrenWithoutALookupOrAWait() throws Exception {
        STORED.put("customer", stored(List.of("root", "customer"), "/bank/c"));
        try (var harness = harness()) {
            harness.open();
            send(harness, "account", "customer");
            harness.setProcessingTime(100);
            assertThat(LOOKUPS.get()).as("the account's parent comes from MongoDB").isEqualTo(1);

            send(harness, "s1", "account");
            send(harness, "s2", "account");

            assertThat(ids(harness)).as("released at once, not one retry interval later").containsExactly("account", "s1", "s2");
            assertThat(harness.extractOutputValues().get(2).getAncestorIds()).containsExactly("root", "customer", "account");
            assertThat(harness.extractOutputValues().get(2).getPath()).isEqualTo("/bank/c/account.pdf/s2.pdf");
            assertThat(LOOKUPS.get()).as("no lookup of the account").isEqualTo(1);
        }
    }

    @Test
    void childrenParkedBeforeTheirFolderWasResolvedNeedNoLookup() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            send(harness, "account", "root");
            advance(harness, 0, 50);
            send(harness, "s1", "account");
            advance(harness, 50, 100);
            assertThat(ids(harness)).as("the root's records come out at its first firing").containsExactly("root", "account");

            advance(harness, 100, 150);
            assertThat(ids(harness)).containsExactly("root", "account", "s1");
            assertThat(LOOKUPS.get()).isZero();
        }
    }

    @Test
    void aChainOfFoldersInFlightIsReleasedACheckIntervalPerLevelWithoutALookup() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            advance(harness, 0, 100);
            send(harness, "s1", "account");
            send(harness, "account", "customer");
            send(harness, "customer", "state");
            harness.setProcessingTime(105);
            send(harness, "state", "root");
            assertThat(ids(harness)).containsExactly("root", "state");

            advance(harness, 105, 160);
            assertThat(ids(harness)).as("three levels, three check intervals of 20 ms, before the first lookup is due")
                    .containsExactlyInAnyOrder("root", "state", "customer", "account", "s1");
            assertThat(harness.extractOutputValues().stream().filter(e -> e.getDocument().getId().equals("s1")).findFirst()
                    .orElseThrow().getAncestorIds()).containsExactly("root", "state", "customer", "account");
            assertThat(LOOKUPS.get()).isZero();
        }
    }

    @Test
    void withoutTheResolvedFoldersChildrenReadTheirParentFromMongoDB() throws Exception {
        try (var harness = harness(true, 0)) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            send(harness, "account", "root");
            send(harness, "s1", "account");
            harness.setProcessingTime(100);
            assertThat(LOOKUPS.get()).as("the account is not written yet").isEqualTo(1);
            assertThat(ids(harness)).containsExactly("root", "account");

            STORED.put("account", stored(List.of("root", "account"), "/bank/account.pdf"));
            harness.setProcessingTime(200);
            assertThat(ids(harness)).containsExactly("root", "account", "s1");
            assertThat(LOOKUPS.get()).isEqualTo(2);
        }
    }

    @Test
    void aDeletedParentIsForgottenAndItsLaterChildrenLookItUp() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            send(harness, "account", "root");
            DocumentEvent deleted = document("account", "root", "account.pdf");
            deleted.setOperation(Operation.DELETE);
            deleted.setVersion(2L);
            harness.processElement(record(deleted, offset++), 0);
            send(harness, "s1", "account");
            harness.setProcessingTime(100);

            assertThat(ids(harness)).containsExactly("root", "account", "account");
            assertThat(LOOKUPS.get()).as("the tombstone is not a parent: MongoDB is asked, and has none").isEqualTo(1);
        }
    }

    @Test
    void theResolvedFoldersAreBoundedLeastRecentlyUsedOut() throws Exception {
        try (var harness = harness(true, 2)) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            send(harness, "a1", "root");
            send(harness, "a2", "root");
            send(harness, "a3", "root");
            harness.setProcessingTime(100);
            send(harness, "s3", "a3");
            send(harness, "s1", "a1");
            harness.setProcessingTime(200);

            assertThat(ids(harness)).containsExactly("root", "a1", "a2", "a3", "s3");
            assertThat(LOOKUPS.get()).as("a1 was pushed out by a2 and a3").isEqualTo(1);
        }
    }

    @Test
    void aFileIsNotRememberedAsAFolderAndItsChildrenLookItUp() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(document("root", null, "bank"), offset++), 0);
            DocumentEvent file = document("letter", "root", "letter.docx");
            file.setBlob(BlobRef.newBuilder().setKey("bank/letter").setMimeType("application/msword")
                    .setFilename("letter.docx").setDigest("d").setLength(1L).build());
            harness.processElement(record(file, offset++), 0);
            send(harness, "attachment", "letter");
            harness.setProcessingTime(100);

            assertThat(ids(harness)).containsExactly("root", "letter");
            assertThat(LOOKUPS.get()).as("documents with content are files: the child asks MongoDB").isEqualTo(1);
        }
    }

    @Test
    void aFolderResolvedInOneSubtaskServesItsChildrenInAnotherOfTheSameJob() throws Exception {
        String customer = idOfSubtask("customer", 0);
        String account = idOfSubtask("account", 1);
        STORED.put(customer, stored(List.of("root", customer), "/bank/c"));
        JobID job = new JobID();
        try (var first = environment(job, 0); var second = environment(job, 1);
             var parents = subtask(first); var children = subtask(second)) {
            parents.open();
            children.open();
            send(parents, account, customer);
            parents.setProcessingTime(100);
            assertThat(ids(parents)).containsExactly(account);

            send(children, "s1", account);
            send(children, "s2", account);

            assertThat(ids(children)).as("released at once, from the folders the job resolved").containsExactly("s1", "s2");
            assertThat(children.extractOutputValues().get(1).getAncestorIds()).containsExactly("root", customer, account);
            assertThat(LOOKUPS.get()).as("only the customer, which the job did not resolve, was read").isEqualTo(1);
        }
        try (var otherJob = environment(new JobID(), 1); var children = subtask(otherJob)) {
            children.open();
            send(children, "s3", account);
            children.setProcessingTime(100);
            assertThat(LOOKUPS.get()).as("another job does not see them").isEqualTo(2);
        }
    }

    @Test
    void childrenWaitForTheirParentAndAreReleasedWhenItArrives() throws Exception {
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "account");
            send(harness, "s2", "account");
            harness.setProcessingTime(100);
            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(LOOKUPS.get()).as("one lookup for both waiting children").isEqualTo(1);

            STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
            harness.setProcessingTime(200);

            assertThat(ids(harness)).containsExactly("s1", "s2");
            assertThat(harness.numKeyedStateEntries()).as("parked records cleared: only the cached ancestry (ids, path, ACL, version) remains").isEqualTo(4);
        }
    }

    @Test
    void aChildWhoseParentNeverArrivesWaitsForTheImportsProgressNotTheClockThenIsDeadLetteredWithItsOriginalBytes()
            throws Exception {
        RawRecord orphan = record(document("orphan", "nowhere", "o.pdf"), 41);
        orphan.timestamp = 5_000;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(orphan, 0);
            advance(harness, 0, 600_000);
            assertThat(deadLetters(harness)).as("ten minutes without progress: a stall, not an orphan").isEmpty();

            harness.processWatermark(5_000);
            checkpoint(harness, 1);
            advance(harness, 600_000, 600_100);
            assertThat(deadLetters(harness)).as("read past its time, but not yet confirmed by 2 checkpoints").isEmpty();
            checkpoint(harness, 2);
            checkpoint(harness, 3);
            advance(harness, 600_100, 600_200);

            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(deadLetters(harness)).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).contains("parent nowhere not found: every partition was read past this "
                        + "document's time plus PT30S, and 2 checkpoints followed");
                assertThat(letter.getStage()).isEqualTo("import");
                assertThat(letter.getPayload()).isEqualTo(ByteBuffer.wrap(orphan.value));
                assertThat(letter.getTopic()).isEqualTo("documents");
                assertThat(letter.getOffset()).isEqualTo(41);
            });
        }
    }

    @Test
    void aParentResolvedWhileItsChildExpiresIsFoundByTheLookupAfterTheNextCheckpoint() throws Exception {
        try (var harness = harness(true, 0)) {
            harness.open();
            send(harness, "s1", "account");
            advance(harness, 0, 9_900); // backed off: looked up every 400 ms, the last at 9,600, the next at 10,000
            int lookups = LOOKUPS.get();
            harness.processWatermark(1);
            // Written by another subtask's writer, whose batch the checkpoint flushed.
            STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
            checkpoint(harness, 1);
            advance(harness, 9_900, 9_920);

            assertThat(LOOKUPS.get()).as("a lookup after the checkpoint, before the next backed-off one").isEqualTo(lookups + 1);
            assertThat(ids(harness)).containsExactly("s1");
            assertThat(deadLetters(harness)).isEmpty();
        }
    }

    @Test
    void onlyTheChildrenWhoseTimeHasBeenReadPastExpireTheLaterOnesWaitForTheirOwn() throws Exception {
        try (var harness = harness()) {
            harness.open();
            RawRecord early = record(document("s1", "nowhere", "s1.pdf"), 1);
            early.timestamp = 1_000;
            RawRecord late = record(document("s2", "nowhere", "s2.pdf"), 2);
            late.timestamp = 9_000;
            harness.processElement(early, 0);
            harness.processElement(late, 0);
            harness.processWatermark(5_000);
            expire(harness, 100);

            assertThat(deadLetters(harness)).extracting(DeadLetter::getOffset).containsExactly(1L);
            harness.processWatermark(9_000);
            checkpoint(harness, 104);
            checkpoint(harness, 105);
            advance(harness, 200, 300);
            assertThat(deadLetters(harness)).extracting(DeadLetter::getOffset).containsExactly(1L, 2L);
        }
    }

    @Test
    void atTheEndOfABoundedInputTheOrphansAreDeadLetteredAtOnce() throws Exception {
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "nowhere");
            harness.processWatermark(Long.MAX_VALUE);
            assertThat(deadLetters(harness)).singleElement()
                    .satisfies(letter -> assertThat(letter.getReason()).contains("parent nowhere not found"));
        }
    }

    @Test
    void undecodableAndMisKeyedRecordsAreDeadLetteredAndTheirSiblingsGoOn() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        byte[] key = "account".getBytes(StandardCharsets.UTF_8);
        RawRecord misKeyed = record(document("stray", "elsewhere", "stray.pdf"), 7);
        misKeyed.key = key;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(new RawRecord(key, "garbage".getBytes(StandardCharsets.UTF_8), "documents", 0, 5, 0), 0);
            harness.processElement(new RawRecord(key, null, "documents", 0, 6, 0), 0);
            harness.processElement(misKeyed, 0);
            send(harness, "s1", "account");
            harness.setProcessingTime(100);
            harness.processElement(misKeyed, 0);

            assertThat(ids(harness)).containsExactly("s1");
            assertThat(deadLetters(harness)).extracting(DeadLetter::getReason).satisfiesExactly(
                    r -> assertThat(r).startsWith("MALFORMED_AVRO"),
                    r -> assertThat(r).isEqualTo("empty record value (tombstone)"),
                    r -> assertThat(r).contains("record key 'account' is not the parent id of document stray ('elsewhere')"),
                    r -> assertThat(r).contains("record key 'account' is not the parent id"));
        }
    }

    @Test
    void aDocumentOfARepositoryNoStoreMayHoldIsDeadLetteredAndItsSiblingsGoOn() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        DocumentEvent upperCase = document("s0", "account", "s0.pdf");
        upperCase.setRepository("BAD");
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(upperCase, offset++), 0);
            send(harness, "s1", "account");
            harness.setProcessingTime(100);

            assertThat(ids(harness)).containsExactly("s1");
            assertThat(deadLetters(harness)).singleElement().satisfies(letter -> {
                assertThat(letter.getReasonClass()).isEqualTo(ReasonClass.INVALID_REPOSITORY);
                assertThat(letter.getReason()).contains("repository 'BAD' of document s0 is not 1-64 lower-case letters");
            });
        }
    }

    @Test
    void aGeneratedBlobKeyThatDoesNotParseIsDeadLetteredAndItsSiblingsGoOn() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        DocumentEvent badKey = document("s0", "account", "s0.pdf");
        badKey.setBlob(BlobRef.newBuilder().setKey("gen/v1/7/statement/not-a-number").setMimeType("application/pdf").setFilename("s0.pdf").build());
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(badKey, offset++), 0);
            send(harness, "s1", "account");
            harness.setProcessingTime(100);

            assertThat(ids(harness)).containsExactly("s1");
            assertThat(deadLetters(harness)).singleElement().satisfies(letter -> {
                assertThat(letter.getReasonClass()).isEqualTo(ReasonClass.INVALID_BLOB_KEY);
                assertThat(letter.getReason()).startsWith("document s0: ");
            });
        }
    }

    @Test
    void aVersionThatWouldFreezeItsDocumentOrIsNotOneIsDeadLetteredAndItsSiblingsGoOn() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        DocumentEvent frozen = document("s0", "account", "s0.pdf");
        frozen.setVersion(Long.MAX_VALUE);
        DocumentEvent zero = document("s2", "account", "s2.pdf");
        zero.setVersion(0L);
        try (var harness = harness()) {
            harness.open();
            harness.processElement(record(frozen, offset++), 0);
            harness.processElement(record(zero, offset++), 0);
            send(harness, "s1", "account");
            harness.setProcessingTime(100);

            assertThat(ids(harness)).containsExactly("s1");
            assertThat(deadLetters(harness)).extracting(DeadLetter::getReasonClass)
                    .containsExactly(ReasonClass.VERSION_OUT_OF_RANGE, ReasonClass.VERSION_OUT_OF_RANGE);
            assertThat(deadLetters(harness).get(0).getReason()).contains("version 9223372036854775807 of document s0 is not from 1 to 2^61");
        }
    }

    @Test
    void spreadAtRandomEveryDocumentLooksUpItsParentAndNothingIsCached() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        try (var harness = harness(false)) {
            harness.open();
            for (int i = 0; i < 5; i++) {
                send(harness, "s" + i, "account");
            }
            harness.setProcessingTime(100);

            assertThat(ids(harness)).hasSize(5);
            assertThat(LOOKUPS.get()).isEqualTo(5);
            assertThat(harness.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void cacheAndParkedRecordsSurviveASnapshot() throws Exception {
        STORED.put("account", stored(List.of("root", "account"), "/bank/a"));
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            send(harness, "s1", "account");
            send(harness, "x1", "later");
            harness.setProcessingTime(100);
            snapshot = harness.snapshot(1, 0);
        }
        STORED.put("later", stored(List.of("root", "later"), "/bank/l"));
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            send(restored, "s2", "account");
            restored.setProcessingTime(200);

            assertThat(ids(restored)).containsExactly("s2", "x1");
            assertThat(effectiveAcl(restored, "s2")).as("the restored cache entry carries the ACL").isEqualTo(STORED_ACL);
            assertThat(LOOKUPS.get()).as("s2 hit the restored cache; x1 was looked up once more, on its timer").isEqualTo(3);
        }
    }

    @Test
    void anExpiryCountedBeforeARestartCountsAgainFromTheRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            send(harness, "x1", "late");
            harness.processWatermark(1);
            checkpoint(harness, 1); // one of the two checkpoints counted before the job failed
            snapshot = harness.snapshot(2, 10);
        }
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.processWatermark(1);
            checkpoint(restored, 3);
            advance(restored, 0, 100);
            assertThat(deadLetters(restored)).as("one checkpoint since the restore, of two").isEmpty();

            // The parent, resolved again from the replay, is written by the checkpoint that follows.
            STORED.put("late", stored(List.of("root", "late"), "/bank/l"));
            checkpoint(restored, 4);
            advance(restored, 100, 200);
            assertThat(ids(restored)).containsExactly("x1");
            assertThat(deadLetters(restored)).isEmpty();
        }
    }

    @Test
    void aChildParkedBeforeARestartWaitsThroughItAndExpiresOnlyAfterCheckpointsOfTheRestoredJob() throws Exception {
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            send(harness, "x1", "late");
            harness.setProcessingTime(900);
            snapshot = harness.snapshot(1, 900);
        }
        // The job was down for a while; its parent comes with the replay after the restart.
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.setProcessingTime(5_000);
            restored.processWatermark(1);
            advance(restored, 5_000, 5_500);
            assertThat(restored.getSideOutput(DeadLetters.TAG)).as("read past, but no checkpoint since the restore").isNull();

            STORED.put("late", stored(List.of("root", "late"), "/bank/l"));
            advance(restored, 5_500, 5_900);
            assertThat(ids(restored)).containsExactly("x1");
            assertThat(restored.getSideOutput(DeadLetters.TAG)).isNull();
        }
    }
}
