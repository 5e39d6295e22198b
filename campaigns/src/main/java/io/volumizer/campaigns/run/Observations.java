package io.volumizer.campaigns.run;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.bson.Document;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoException;

import io.volumizer.harness.ProcessCpu;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchIndices;

/**
 * What every step records of the stores once it is over, read from the stores themselves: their sizes and bytes a
 * document, the campaign's dead letters by reason, and the reconciliation of what the generator made with what each
 * store holds; and the CPU the local services' processes spent, from /proc.
 */
final class Observations {

    /** The runner's own process among the services: it sends a measure's requests. */
    static final String RUNNER = "campaign-runner";

    private final PipelineOptions pipeline;
    private final Stores stores;
    private final MongoRepositories mongo;
    private final LocalServices services;
    private final String repository;

    Observations(PipelineOptions pipeline, Stores stores, MongoRepositories mongo, LocalServices services,
            String repository) {
        this.pipeline = pipeline;
        this.stores = stores;
        this.mongo = mongo;
        this.services = services;
        this.repository = repository;
    }

    /** The local services' processes now (a fault's restart gives one a new process). */
    ProcessCpu processes() {
        Map<String, List<Long>> groups = new LinkedHashMap<>();
        services.running().forEach((service, pid) -> groups.put(service, List.of(pid)));
        groups.put(RUNNER, List.of(ProcessHandle.current().pid()));
        return new ProcessCpu(groups);
    }

    /** Each service's CPU seconds between two readings, a document moved and a request sent where there were any. */
    static void cpu(ObjectNode result, Map<String, Double> before, Map<String, Double> after, long documents,
            long requests) {
        ArrayNode cpu = result.putArray("cpu");
        after.forEach((service, seconds) -> {
            if (!before.containsKey(service)) {
                return;
            }
            double spent = seconds - before.get(service);
            ObjectNode row = cpu.addObject().put("service", service).put("cpuSeconds", round(spent, 3));
            if (documents > 0) {
                row.put("msPerDocument", round(spent * 1000 / documents, 5));
            }
            if (requests > 0) {
                row.put("msPerRequest", round(spent * 1000 / requests, 3));
            }
        });
    }

    /**
     * Writes stores, bytesPerDocument, deadLetters and reconciliation into the step's result.
     *
     * @param expected the documents the generator made for the repository so far
     * @return the documents MongoDB holds, counted one by one
     */
    long record(ObjectNode result, long expected, List<String> notes) throws IOException {
        long inMongo = stores.mongoCount(repository);
        long inSearch = stores.elasticsearchCount(repository);
        ObjectNode storesJson = result.putObject("stores");
        ObjectNode mongoJson = storesJson.putObject("mongodb").put("documents", inMongo);
        ObjectNode bytes = result.putObject("bytesPerDocument");
        try {
            Document stats = mongo.database(repository).runCommand(new Document("collStats",
                    mongo.collection(repository).getNamespace().getCollectionName()));
            // Each size the server reports is written; the local stand-in reports fewer than MongoDB does.
            Map<String, String> reported = Map.of("size", "dataBytes", "totalIndexSize", "indexBytes", "storageSize",
                    "storageBytes");
            reported.forEach((statistic, field) -> {
                if (stats.get(statistic) instanceof Number value) {
                    mongoJson.put(field, value.longValue());
                }
            });
            if (inMongo > 0 && mongoJson.path("dataBytes").asLong() > 0) {
                bytes.put("mongodbData", round(mongoJson.path("dataBytes").asLong() / (double) inMongo, 1));
            }
            if (inMongo > 0 && mongoJson.path("indexBytes").asLong() > 0) {
                bytes.put("mongodbIndexes", round(mongoJson.path("indexBytes").asLong() / (double) inMongo, 1));
            }
            if (!mongoJson.has("dataBytes") || !mongoJson.has("indexBytes")) {
                notes.add("MongoDB's collStats reported " + stats.keySet() + ": the collection's sizes it leaves out "
                        + "are not written");
            }
        } catch (MongoException e) {
            notes.add("MongoDB did not report the collection's sizes (collStats): " + e.getMessage());
        }
        SearchIndices.StoredSize primary = stores.search().indices(pipeline.indices())
                .primarySize(pipeline.indices().of(repository));
        storesJson.putObject("search").put("documents", inSearch).put("primaryBytes", primary.bytes());
        if (primary.documents() > 0) {
            bytes.put("searchPrimary", round(primary.bytes() / (double) primary.documents(), 1));
        }
        long kafka = 0;
        for (String topic : List.of(pipeline.documentsTopic(), pipeline.importedTopic(), pipeline.deadletterTopic())) {
            kafka += stores.topicBytes(topic);
        }
        storesJson.put("kafkaBytes", kafka);
        storesJson.put("diskFreeBytes", diskFreeBytes());
        long deadLetters = deadLetters(result);
        result.putObject("reconciliation").put("expected", expected).put("mongodb", inMongo).put("search", inSearch)
                .put("deadLetters", deadLetters)
                .put("reconciled", inMongo + deadLetters == expected && inSearch == inMongo);
        return inMongo;
    }

    /** The campaign's dead letters, by stage and reason class; returns their total. */
    private long deadLetters(ObjectNode result) {
        var decoder = KafkaAvroSerde.deserializer(pipeline.registry.url, DeadLetter.class);
        Map<String, Long> byReason = new TreeMap<>();
        String topic = pipeline.deadletterTopic();
        stores.readCommitted(topic, value -> {
            DeadLetter letter = decoder.deserialize(topic, value);
            byReason.merge(letter.getStage() + ": " + letter.getReasonClass(), 1L, Long::sum);
        });
        long total = byReason.values().stream().mapToLong(Long::longValue).sum();
        ObjectNode json = result.putObject("deadLetters").put("total", total);
        ObjectNode reasons = json.putObject("byReason");
        byReason.forEach(reasons::put);
        return total;
    }

    /** The services' disk: where their state folder is. */
    long diskFreeBytes() {
        try {
            return Files.getFileStore(services.state()).getUsableSpace();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

}
