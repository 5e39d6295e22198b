package io.volumizer.benchmarks.calibration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.volumizer.benchmarks.harness.Report;
import io.volumizer.benchmarks.calibration.PublishedLayouts.Workload;
import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.plan.Calibration;
import io.volumizer.ops.plan.DocumentShares;
import io.volumizer.ops.plan.NodeTypes;
import io.volumizer.ops.plan.Planner;

/**
 * The planner's answer for each published workload, from a calibration, beside the layout that ran it: written as
 * {@code plan-vs-published.md} and {@code .json} next to the calibration.
 */
final class PlanComparison {

    /** The planner's defaults ({@code bin/volumizer plan}): 30 GiB shards, 8 h of Kafka retention. */
    private static final double SHARD_GIB = 30;
    private static final double KAFKA_RETENTION_HOURS = 8;
    private static final long SAMPLE_CUSTOMERS = 200;
    private static final double GIB = 1024.0 * 1024 * 1024;

    private PlanComparison() {
    }

    static void write(Calibration calibration, Path root, Path folder) throws IOException {
        NodeTypes catalogue = NodeTypes.read(root.resolve("conf/node-types.yaml"));
        List<String> lines = new ArrayList<>(List.of("# The planner against the published layouts", "",
                "The planner (`bin/volumizer plan`) from `calibration.json` (measured " + calibration.machine().measured()
                        + " on " + calibration.machine().cores() + " cores, " + calibration.machine().searchEngine()
                        + "), for the workloads of Nuxeo's 11-billion-document benchmark (`seeds/000`), on the node "
                        + "types that ran them; " + (int) SHARD_GIB + " GiB shards, " + (int) KAFKA_RETENTION_HOURS
                        + " h of Kafka retention. A planned count is what the most demanding of its constraints needs "
                        + "(each constraint's need in brackets).", ""));
        List<Map<String, Object>> json = new ArrayList<>();
        for (Workload workload : PublishedLayouts.WORKLOADS) {
            Topology topology = workload.topology() == null ? Topology.single(GeneratorSettings.DEFAULT_REPOSITORY)
                    : TopologyFile.load(root.resolve(workload.topology()));
            Planner.Request request = new Planner.Request(workload.documents(), workload.importRate(),
                    workload.reindexHours(), SHARD_GIB, KAFKA_RETENTION_HOURS, catalogue.get(workload.searchNode()),
                    catalogue.get(workload.mongoNode()), catalogue.get(workload.flinkNode()));
            Planner.Blueprint plan = Planner.plan(request, calibration, topology,
                    DocumentShares.of(topology, GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, SAMPLE_CUSTOMERS)));
            lines.addAll(section(workload, plan));
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("published", workload);
            entry.put("planned", plan);
            json.add(entry);
        }
        lines.addAll(List.of("## Why the answers differ", "",
                "- **What is planned.** The planner sizes for the import and reindex rates asked, at "
                        + "70% CPU, and for the bytes stored. The published clusters also served interactive users "
                        + "(the Gatling runs), were sized ahead of growth, and were resized by hand between steps "
                        + "(phase 1 kept 16 data nodes for the reindex, then went down to 12 r5.2xlarge).",
                "- **The documents.** Nuxeo's documents carry its system properties and its own mapping; ours carry "
                        + "the generator's fields. The bytes row compares a document's average size here with the "
                        + "100-million-document run's (`seeds/001`, Elasticsearch 5.6 and MongoDB 3.4 era).",
                "- **MongoDB's cache.** The planner keeps every index in WiredTiger's cache, so that the import does "
                        + "not slow down as the repository grows; its index bytes a document are close to the ones "
                        + "`seeds/001` measured on a real WiredTiger (208). The published run kept one M60 (31 GiB of "
                        + "cache) to 1 billion and throttled its import there from 5.5K to 2.5K docs/s, then moved to "
                        + "an M200 for 2 billion (`seeds/000`): it traded import speed for fewer nodes.",
                "- **The engine.** Costs here are " + calibration.machine().searchEngine() + "'s; the published run "
                        + "used AWS Elasticsearch Service 7.x.",
                "- **The calibration's machine.** Every service shared " + calibration.machine().cores() + " cores: a "
                        + "store's CPU per document includes its share of the contention, and no network hop between "
                        + "hosts. The planner counts a MongoDB primary's CPU, not its secondaries' replication, and no "
                        + "IOPS: the published MongoDB tiers were chosen for their NVMe IO.",
                "- **Replicas.** The 11.3-billion plan uses the replicas `topologies/11b.yaml` names (none: it is "
                        + "laid out for one machine); the others one replica per shard.", ""));
        Report.write(folder, "plan-vs-published", json, String.join("\n", lines));
    }

    private static List<String> section(Workload workload, Planner.Blueprint plan) {
        Planner.Request request = plan.request();
        int primaries = plan.repositories().stream().mapToInt(Planner.RepositoryPlan::primaryShards).sum();
        double mongoData = plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::mongoDataGiB).sum();
        double mongoIndex = plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::mongoIndexGiB).sum();
        double search = plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::searchPrimaryGiB).sum();
        double documents = request.documents();
        List<String> lines = new ArrayList<>(List.of("## " + workload.name(), "",
                "Rates: " + workload.ratesSource() + ". Topology: " + (workload.topology() == null ? "one repository"
                        : workload.topology()) + ".", "",
                "| | published | planned |", "|---|---|---|"));
        lines.add(row("search data nodes", workload.searchNodes() + " × " + workload.searchNode(),
                plan.searchDataNodes().count() + " × " + request.searchNode().name() + needs(plan.searchDataNodes())));
        lines.add(row("primary shards", workload.primaryShards() > 0 ? Integer.toString(workload.primaryShards())
                : "not published", primaries + String.format(Locale.ROOT, " (%,.0f GiB of primaries)", search)));
        lines.add(row("MongoDB", workload.mongodb(), plan.mongoShards().count() + " shard(s) of "
                + request.mongoNode().name() + " (" + plan.mongoNodes() + " nodes)" + needs(plan.mongoShards())));
        lines.add(row("MongoDB storage", workload.topology() != null ? "8.6 TB (the archives)" : "not published",
                String.format(Locale.ROOT, "%,.0f GiB of data (uncompressed BSON) and %,.0f GiB of indexes",
                        mongoData, mongoIndex)));
        lines.add(row("Flink / workers", workload.workers(), plan.taskManagers() + " TaskManagers × "
                + request.flinkNode().name() + String.format(Locale.ROOT, " (slots: import %d, index %d, reindex %d)",
                        plan.importSlots().count(), plan.indexSlots().count(), plan.reindexSlots().count())));
        lines.add(row("Kafka", workload.kafka(), plan.kafkaPartitions().count() + " partitions, "
                + String.format(Locale.ROOT, "%,.0f GiB", plan.kafkaStorageGiB())));
        lines.add(row("full reindex", String.format(Locale.ROOT, "%,.0f docs/s asked (%.1f h)", plan.reindexRate(),
                request.reindexHours()), String.format(Locale.ROOT, "%.1f h on the planned nodes (limited by the %s)",
                        plan.reindexHoursOnPlan(), plan.reindexLimit())));
        lines.add(row("bytes a document: MongoDB data + indexes; search primary",
                String.format(Locale.ROOT, "%,.0f + %,.0f; %,.0f (seeds/001, 100M documents)",
                        PublishedLayouts.MONGODB_DOCUMENT_BYTES, PublishedLayouts.MONGODB_INDEX_BYTES,
                        PublishedLayouts.SEARCH_BYTES),
                String.format(Locale.ROOT, "%,.0f + %,.0f; %,.0f", mongoData * GIB / documents,
                        mongoIndex * GIB / documents, search * GIB / documents)));
        lines.add("");
        return lines;
    }

    private static String row(String what, String published, String planned) {
        return "| " + what + " | " + published + " | " + planned + " |";
    }

    private static String needs(Planner.Sized sized) {
        StringBuilder text = new StringBuilder(" (");
        sized.needs().forEach((constraint, need) -> text.append(text.length() > 2 ? "; " : "").append(constraint)
                .append(String.format(Locale.ROOT, " %.1f", need)));
        return text.append(')').toString();
    }
}
