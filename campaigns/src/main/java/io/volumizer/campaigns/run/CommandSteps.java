package io.volumizer.campaigns.run;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.or;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.bson.Document;
import org.bson.conversions.Bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Projections;

import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.api.commands.Commands;
import io.volumizer.harness.Await;
import io.volumizer.harness.Progress;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.domain.selection.Selection;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexNames;

/**
 * A campaign's bulk and acl steps: the commands {@code bin/volumizer bulk update} and {@code bulk set-acl} start,
 * through the same {@link Commands}, followed to their end while the campaign's import applies their changes. Each
 * is measured by the documents its command reports it changed, and checked against the stores: what they hold after
 * is what the command should have produced ({@code changes} in the step's file).
 */
final class CommandSteps {

    /** Between two readings of a command's status: the series' resolution. */
    private static final Duration POLL = Duration.ofSeconds(1);
    /** A command fails its step when its status stood still this long (a job restarting takes under a minute). */
    private static final Duration STALLED = Duration.ofMinutes(3);
    /** The index's count of a command's documents stood still this long short of MongoDB's: the check fails. */
    private static final Duration INDEX_STALLED = Duration.ofMinutes(1);

    /** Throws when a job the command needs (the import applying its changes) failed. */
    interface Check {
        void run() throws Exception;
    }

    private final Commands commands;
    private final Stores stores;
    private final MongoRepositories mongo;
    private final IndexNames indices;
    private final String repository;
    private final Check jobsRunning;

    CommandSteps(Commands commands, Stores stores, MongoRepositories mongo, IndexNames indices, String repository,
            Check jobsRunning) {
        this.commands = commands;
        this.stores = stores;
        this.mongo = mongo;
        this.indices = indices;
        this.repository = repository;
        this.jobsRunning = jobsRunning;
    }

    /**
     * A bulk update of the step's selection; reconciled when every document the index selected before it holds the
     * command's version in MongoDB, with the values set, and in the index.
     *
     * @return the documents it changed, and no requests
     */
    long[] bulk(StepSpec.Bulk spec, ObjectNode result, long startNanos, List<String> notes) throws Exception {
        List<String> alias = List.of(indices.of(repository));
        long selected = stores.search().reader().count(alias, Selection.parse(spec.filters()).query());
        ObjectNode properties = RunFolder.JSON.createObjectNode();
        spec.properties().forEach(properties::put);
        String id = commands.bulk(repository, BulkUpdateOptions.Action.setProperties.name(), spec.filters(),
                spec.all(), properties);
        JsonNode status = follow(id, "bulk", selected, result, startNanos);
        List<Bson> changed = new ArrayList<>(List.of(eq(originCommand(), id)));
        spec.properties().forEach((name, value) -> changed.add(eq(DocumentFields.PROPERTIES + "." + name, value)));
        long inMongo = mongo.collection(repository).countDocuments(and(changed));
        long inSearch = indexed(alias, term(originCommand(), id), inMongo, notes);
        long processed = status.path("processed").asLong();
        result.putObject("changes").put("expected", selected).put("mongodb", inMongo).put("search", inSearch)
                .put("reconciled", processed == selected && inMongo == selected && inSearch == selected);
        return new long[] {processed, 0};
    }

    /**
     * A setAcl on the step's folder: its ACL as the repository holds it, with the step's grant added; reconciled when
     * the brute-force walk finds no stored ACL at or below the folder wrong and the index finds as many of those
     * documents readable by the principal as MongoDB holds.
     *
     * @return the documents it changed, and no requests
     */
    long[] acl(StepSpec.Acl spec, ObjectNode result, long startNanos, List<String> notes) throws Exception {
        MongoCollection<Document> documents = mongo.collection(repository);
        Document folder = documents.find(eq(DocumentFields.KEY, spec.folder())).first();
        if (folder == null) {
            throw new IllegalStateException("no folder " + spec.folder() + " in " + repository + " at this size");
        }
        ObjectNode acl = folder.get(DocumentFields.ACL) instanceof Document own
                ? (ObjectNode) RunFolder.JSON.readTree(own.toJson()) : RunFolder.JSON.createObjectNode();
        acl.withArray(DocumentFields.Acl.ACES).addObject().put(DocumentFields.Acl.PRINCIPAL, spec.principal())
                .put(DocumentFields.Acl.PERMISSION, spec.permission().name()).put(DocumentFields.Acl.GRANTED, true);
        Bson subtree = or(eq(DocumentFields.KEY, spec.folder()), eq(DocumentFields.ANCESTOR_IDS, spec.folder()));
        long checked = documents.countDocuments(subtree);
        String id = commands.setAcl(repository, spec.folder(), acl);
        JsonNode status = follow(id, "acl", checked - 1, result, startNanos);
        // What the walk reads of each document, no more: the local stand-in holds a query's whole answer in memory.
        List<String> mismatches = BruteForceAcls.over(List.of(documents)).mismatches(documents.find(subtree)
                .projection(Projections.include(DocumentFields.PARENT_ID, DocumentFields.ACL, DocumentFields.READ_ACL,
                        DocumentFields.WRITE_ACL, DocumentFields.MANAGE_ACL)).batchSize(1000));
        mismatches.stream().limit(5).forEach(line -> notes.add("ACL mismatch: " + line));
        // A grant of any permission grants reading: the index keeps the readers alone.
        long inMongo = documents.countDocuments(and(subtree, eq(DocumentFields.READ_ACL, spec.principal())));
        ObjectNode readable = RunFolder.JSON.createObjectNode();
        ObjectNode bool = readable.putObject("bool");
        bool.putArray("filter").add(term(DocumentFields.READ_ACL, spec.principal()));
        ArrayNode should = bool.putArray("should");
        should.add(term(DocumentFields.ANCESTOR_IDS, spec.folder()));
        should.addObject().putObject("ids").putArray("values").add(spec.folder());
        bool.put("minimum_should_match", 1);
        long inSearch = indexed(List.of(indices.of(repository)), readable, inMongo, notes);
        result.putObject("changes").put("checked", checked).put("mismatches", mismatches.size())
                .put("mongodb", inMongo).put("search", inSearch)
                .put("reconciled", mismatches.isEmpty() && inMongo == inSearch);
        return new long[] {status.path("processed").asLong(), 0};
    }

    /**
     * Follows the command until it ends, as {@code bulk status} does, into the step's rates and series (its
     * {@code processed} documents over time) and {@code command} (its final status' counts).
     *
     * @param expected the documents it should change, at most: its progress' end
     * @throws IllegalStateException unless it COMPLETED
     */
    private JsonNode follow(String id, String stage, long expected, ObjectNode result, long startNanos)
            throws Exception {
        Series series = new Series(stage, startNanos, 0);
        Progress progress = new Progress(Math.max(1, expected));
        AtomicReference<JsonNode> last = new AtomicReference<>();
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(id)) {
            // Its rate (docsPerSecond) changes every reading: the state and the counts are what show it moving.
            Await.stalledFor(STALLED).every(POLL).until(stage + " command " + id, () -> {
                jobsRunning.run();
                JsonNode status = commands.status(id);
                last.set(status);
                long processed = status.path("processed").asLong();
                series.sample(System.nanoTime(), processed);
                LocalCampaign.reading(progress, processed);
                return List.of(status.path("state").asText(), processed, status.path("applied").asLong(),
                        status.path("rounds").asLong());
            }, reading -> !State.valueOf((String) reading.get(0)).isActive());
        }
        JsonNode status = last.get();
        ObjectNode command = result.putObject("command").put("id", id);
        for (String field : List.of("state", "total", "processed", "skipped", "errors", "rounds", "docsPerSecond")) {
            if (status.has(field)) {
                command.set(field, status.get(field));
            }
        }
        if (!status.path("state").asText().equals(State.COMPLETED.name())) {
            throw new IllegalStateException(stage + " command " + id + " ended " + status);
        }
        LocalCampaign.rate(result.putArray("rates"), stage, progress);
        series.addTo(result.putArray("series"));
        return status;
    }

    /** The index's count for {@code query} once it reaches MongoDB's {@code inMongo}, or where it stood still. */
    private long indexed(List<String> alias, ObjectNode query, long inMongo, List<String> notes) throws Exception {
        try {
            return Await.stalledFor(INDEX_STALLED).every(POLL).until("the index's count",
                    () -> stores.search().reader().count(alias, query), count -> count == inMongo);
        } catch (IllegalStateException e) {
            notes.add("the index did not reach MongoDB's " + inMongo + " documents: " + e.getMessage());
            return stores.search().reader().count(alias, query);
        }
    }

    private static String originCommand() {
        return DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND;
    }

    private static ObjectNode term(String field, String value) {
        ObjectNode term = RunFolder.JSON.createObjectNode();
        term.putObject("term").put(field, value);
        return term;
    }
}
