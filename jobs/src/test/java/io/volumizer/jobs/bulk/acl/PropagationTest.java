package io.volumizer.jobs.bulk.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;

import org.bson.BsonDocumentReader;
import org.bson.Document;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.jobs.testing.Documents;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/**
 * The propagation against a repository held in a map, with a small import beside it that applies what it sends
 * the way the real one does: against the parent as stored, once the parent is at the version the change names.
 * Every test ends with the brute-force check of every stored effective ACL.
 */
class PropagationTest {

    private static final Instant COMMAND_TIME = Instant.parse("2026-11-24T08:00:00Z");
    private static final Acl STATE_ACL = new Acl(List.of(AclInheritance.grant("branch-CA", Permission.WRITE),
            AclInheritance.grant("regional-audit", Permission.READ)), false);

    /** The repository as MongoDB holds it, by id. */
    private final Map<String, Document> stored = new LinkedHashMap<>();
    /** What the propagation sent and the import has not applied yet. */
    private final List<DocumentEvent> sent = new ArrayList<>();
    private final List<long[]> reports = new ArrayList<>();
    private boolean done;

    private final Propagation.Subtree subtree = new Propagation.Subtree() {
        @Override
        public Optional<Document> find(String id) {
            return Optional.ofNullable(stored.get(id));
        }

        @Override
        public List<Document> find(List<String> ids) {
            return ids.stream().filter(stored::containsKey).map(stored::get).toList();
        }

        @Override
        public Iterator<Document> below(String folderId) {
            return List.copyOf(stored.values()).stream().filter(d -> !MongoDocumentStore.isTombstone(d)
                    && d.getList(DocumentFields.ANCESTOR_IDS, String.class).contains(folderId)).iterator();
        }

        @Override
        public Map<String, Long> versions(List<String> ids) {
            Map<String, Long> versions = new LinkedHashMap<>();
            ids.stream().filter(stored::containsKey).forEach(id -> versions.put(id, version(id)));
            return versions;
        }
    };

    @BeforeEach
    void repository() {
        importNow(document("root", null, new Acl(List.of(AclInheritance.grant("administrators", Permission.MANAGE)), false), false));
        importNow(document("CA", "root", new Acl(List.of(AclInheritance.grant("branch-CA", Permission.WRITE)), false), false));
        for (String customer : List.of("c1", "c2")) {
            importNow(document(customer, "CA", new Acl(List.of(AclInheritance.grant("customer-" + customer, Permission.READ)), false), false));
            importNow(document(customer + "-card", customer, null, true));
            for (String account : List.of(customer + "-a1", customer + "-a2")) {
                Acl restricted = account.equals("c2-a2")
                        ? new Acl(List.of(AclInheritance.grant("compliance", Permission.READ)), true) : null;
                importNow(document(account, customer, restricted, false));
                importNow(document(account + "-s1", account, null, true));
                importNow(document(account + "-s2", account, new Acl(List.of(AclInheritance.grant("auditors", Permission.READ)), true), true));
            }
        }
    }

    private Propagation propagation() {
        return new Propagation("CA", STATE_ACL, "acl-1", COMMAND_TIME, 3, subtree,
                (total, changed, unchanged, finished) -> {
                    reports.add(new long[] {total, changed, unchanged});
                    done = finished;
                });
    }

    /**
     * Steps the propagation; the import lags behind it, applying what was sent only when the propagation waits, and
     * then the latest first where it may (the events of one round travel different keys, in any order).
     */
    private void run(Propagation propagation, Runnable afterEachStep) {
        int steps = 0;
        for (Propagation.Step step = null; step != Propagation.Step.DONE; steps++) {
            step = propagation.step(sent::add);
            afterEachStep.run();
            if (step == Propagation.Step.WAITING) {
                applySent();
            }
            assertThat(steps).as("converges").isLessThan(1000);
        }
    }

    @Test
    void everyDocumentBelowTheFolderEndsWithTheEffectiveAclTheNewAclGivesIt() {
        Propagation propagation = propagation();
        run(propagation, () -> { });

        assertThat(mismatches()).isEmpty();
        assertThat(stored.get("c1-a1-s1").getList(DocumentFields.READ_ACL, String.class)).contains("regional-audit");
        assertThat(stored.get("c2-a2-s1").getList(DocumentFields.READ_ACL, String.class))
                .as("below a block, nothing changes").doesNotContain("regional-audit");
        assertThat(propagation.round()).as("a round that changes, then one that finds nothing").isEqualTo(2);
        assertThat(done).isTrue();
        long[] last = reports.get(reports.size() - 1);
        assertThat(last).as("16 below the state; the 4 statements and the account that block, and the statement below "
                + "that account, keep theirs").containsExactly(16, 10, 6);
    }

    @Test
    void aDocumentCreatedMeanwhileAgainstTheOldAclIsFoundAndChangedInTheNextRound() {
        EffectiveAcl accountBefore = effective("c1-a1");
        Propagation propagation = propagation();
        boolean[] created = {false};
        run(propagation, () -> {
            if (!created[0] && sent.stream().anyMatch(e -> e.getId().equals("c1-a1-s1"))) {
                created[0] = true; // after the round read the account's children
                // resolved by the import against the account as it had it cached before the change
                store(document("c1-a1-s3", "c1-a1", null, true), AclInheritance.effective(accountBefore, null));
            }
        });

        assertThat(created[0]).isTrue();
        assertThat(mismatches()).isEmpty();
        assertThat(propagation.round()).isEqualTo(3);
    }

    @Test
    void aPropagationStartedAgainAfterARestartFindsDoneWhatWasDoneAndSendsTheRest() {
        Propagation first = propagation();
        for (int i = 0; i < 4; i++) {
            first.step(sent::add);
        }
        applySent();
        assertThat(mismatches()).as("stopped half way").isNotEmpty();

        List<DocumentEvent> resent = new ArrayList<>();
        run(propagation(), () -> resent.addAll(sent));

        assertThat(resent).as("the folder was changed by this command already").noneMatch(e -> e.getId().equals("CA"));
        assertThat(mismatches()).isEmpty();
    }

    // ---- the repository and the import beside it

    private static DocumentEvent document(String id, String parentId, Acl acl, boolean file) {
        DocumentEvent document = Documents.document(id, parentId, id);
        document.setAcl(acl);
        if (file) {
            document.setBlob(BlobRef.newBuilder().setKey("k-" + id).setMimeType("application/pdf").setFilename(id + ".pdf")
                    .setLength(1L).build());
        }
        return document;
    }

    private void importNow(DocumentEvent document) {
        EffectiveAcl parent = document.getParentId() == null ? null : effective(document.getParentId());
        store(document, AclInheritance.effective(parent, document.getAcl()));
    }

    /**
     * Applies what was sent, the latest first, each event once its parent is at the version it names (until then it
     * waits, as in the import), until nothing more can be applied.
     */
    private void applySent() {
        for (boolean applied = true; applied; ) {
            applied = false;
            for (ListIterator<DocumentEvent> it = sent.listIterator(sent.size()); it.hasPrevious(); ) {
                DocumentEvent event = it.previous();
                Long required = event.getParentVersion();
                if (required != null && version(event.getParentId()) < required) {
                    continue;
                }
                if (event.getVersion() > version(event.getId())) {
                    importNow(event);
                }
                it.remove();
                applied = true;
            }
        }
    }

    private void store(DocumentEvent document, EffectiveAcl effective) {
        List<String> ancestors = new ArrayList<>();
        for (String at = document.getParentId(); at != null; at = stored.get(at).getString(DocumentFields.PARENT_ID)) {
            ancestors.add(0, at);
        }
        ImportedEvent imported = ImportedEvent.newBuilder().setDocument(document).setAncestorIds(ancestors)
                .setPath("/" + document.getId()).setImportedAt(Instant.EPOCH).setEffectiveAcl(effective).build();
        stored.put(document.getId(), new DocumentCodec().decode(new BsonDocumentReader(MongoDocumentStore.toBson(imported)),
                DecoderContext.builder().build()));
    }

    private EffectiveAcl effective(String id) {
        return MongoDocumentStore.effectiveAcl(stored.get(id));
    }

    private long version(String id) {
        return stored.get(id).get(DocumentFields.VERSION, Number.class).longValue();
    }

    private List<String> mismatches() {
        return new BruteForceAcls(stored::get).mismatches(stored.values());
    }
}
