package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.plan.PublishedLayouts.Workload;
import io.volumizer.ops.results.Report;
import io.volumizer.stores.search.IndexProfile;

/**
 * The planner's answer for each published workload, from a calibration, beside the layout that ran it: written as
 * {@code plan-vs-published.md} and {@code .json} next to the calibration ({@code bench plan-vs-published}).
 */
public final class PlanComparison {

    /** The planner's defaults ({@code bin/volumizer plan}): 30 GiB shards, 8 h of Kafka retention. */
    private static final double SHARD_GIB = 30;
    private static final double KAFKA_RETENTION_HOURS = 8;
    private static final long SAMPLE_CUSTOMERS = 200;
    private static final double GIB = 1024.0 * 1024 * 1024;
    static final String SEARCH_NODES = "search data nodes";
    static final String PRIMARY_SHARDS = "primary shards";
    static final String MONGODB_SHARDS = "MongoDB shards";
    static final String WORKERS = "workers (Flink TaskManagers)";
    static final String REINDEX_HOURS = "full reindex, hours";
    private static final String NOT_PUBLISHED = "not published";
    /** The size-aware calibration a campaign made, written beside the comparison. */
    public static final String BY_SIZE = "calibration-by-size";

    private PlanComparison() {
    }

    /**
     * Writes the comparison for {@code calibration} (size-aware when a campaign made it so, with the cost of a request
     * it measured or assumed): each workload planned with the published documents' bytes (its error against the
     * published layout per row) and with the calibration's own.
     */
    public static void write(Calibration measured, Path root, Path folder) throws IOException {
        Calibration calibration = CalibrationOptions.withAssumedRequestCosts(measured, root);
        NodeTypes catalogue = NodeTypes.read(root.resolve("conf/node-types.yaml"));
        Calibration published = DocumentBytes.published.apply(calibration);
        List<String> lines = new ArrayList<>(List.of("# The planner against the published layouts", "",
                "The planner (`bin/volumizer plan`) from a calibration measured " + calibration.machine().measured()
                        + " on " + calibration.machine().cores() + " cores (" + calibration.machine().searchEngine()
                        + ")" + (calibration.bySize().campaign() != null ? ", its costs made functions of the "
                                + "repository's size by campaign " + calibration.bySize().campaign() : "")
                        + ", for the workloads of Nuxeo's 11-billion-document benchmark (`seeds/000`) with the "
                        + "interactive load its Gatling runs had, on the node types that ran them; " + (int) SHARD_GIB
                        + " GiB shards, " + (int) KAFKA_RETENTION_HOURS + " h of Kafka retention. **planned** stores "
                        + "the published documents' bytes (`--document-bytes published`); **error** is planned ÷ "
                        + "published − 1 on that plan; the last column stores our documents' bytes as measured. A "
                        + "planned count is what the most demanding of its constraints needs (each constraint's need "
                        + "in brackets). Where the figures come from:", ""));
        published.sources().forEach(source -> lines.add("- " + source));
        lines.add("");
        if (calibration.bySize().campaign() != null) {
            lines.addAll(functions(calibration.bySize()));
            Report.writeJson(folder, BY_SIZE, calibration);
        }
        List<Map<String, Object>> json = new ArrayList<>();
        for (Workload workload : PublishedLayouts.WORKLOADS) {
            Topology topology = workload.topology() == null ? Topology.single(GeneratorSettings.DEFAULT_REPOSITORY)
                    : TopologyFile.load(root.resolve(workload.topology()));
            Planner.Request request = new Planner.Request(workload.documents(), workload.importRate(),
                    workload.reindexHours(), SHARD_GIB, KAFKA_RETENTION_HOURS, new Planner.Interactive(
                            workload.navigationPerSecond(), workload.searchPerSecond()),
                    catalogue.get(workload.searchNode()), catalogue.get(workload.mongoNode()),
                    catalogue.get(workload.flinkNode()));
            DocumentShares shares = DocumentShares.of(topology, GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED,
                    SAMPLE_CUSTOMERS));
            Planner.Blueprint plan = Planner.plan(request, published, topology, shares);
            Planner.Blueprint ours = Planner.plan(request, calibration, topology, shares);
            Map<String, Double> errors = errors(workload, plan);
            lines.addAll(section(workload, plan, ours, errors));
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("published", workload);
            entry.put("planned", plan);
            entry.put("errors", errors);
            entry.put("plannedWithMeasuredBytes", ours);
            json.add(entry);
        }
        double ourIndexing = calibration.cpuSeconds(calibration.stage("index", IndexProfile.METADATA.id()),
                Calibration.SEARCH, PublishedLayouts.WORKLOADS.get(0).documents());
        lines.addAll(List.of("## Why the answers differ", "",
                "- **Interactive load.** A request's CPU is the calibration's: "
                        + (calibration.hasRequestCosts(Calibration.SEARCH_REQUESTS) && calibration.bySize().requestCpu()
                                .containsKey(Calibration.SEARCH_REQUESTS) ? "a function of size fitted to the "
                                        + "campaign's measure steps, extrapolated to billions of documents (each plan "
                                        + "says how far)" : "measured on a repository of thousands of documents, "
                                        + "not a function of size")
                        + ". Nuxeo's searches at 1 to 3 billion matched up to hundreds of thousands of documents, "
                        + "sorted and aggregated them (seeds/000 had to make them more selective), and its mapping "
                        + "kept title fielddata: a request cost grows with the repository in ways a small one does "
                        + "not show.",
                "- **What the published clusters were sized for.** Phase 1 scaled the search cluster out to 16 "
                        + "m5.4xlarge for the reindex of 3 billion and back to 12 r5.2xlarge after; the clusters were "
                        + "sized ahead of growth and resized by hand between steps. The planner sizes each constraint "
                        + "at 70% CPU and the disks at 75%.",
                String.format(Locale.ROOT, "- **Indexing CPU.** Our search engine's CPU a document is what our "
                        + "documents' fields cost: %.2f ms in the index stage (metadata profile). `seeds/001` reported "
                        + "%,.0f docs/s a vCPU of Elasticsearch for Nuxeo's documents (with their fulltext): %.2f ms a "
                        + "document, %.1f× ours.", ourIndexing * 1000, PublishedLayouts.INDEXED_PER_VCPU_SECOND,
                        1000 / PublishedLayouts.INDEXED_PER_VCPU_SECOND,
                        1 / PublishedLayouts.INDEXED_PER_VCPU_SECOND / ourIndexing),
                "- **The documents' bytes.** With the published bytes, the primaries follow from seeds/001's 100 "
                        + "million documents (Elasticsearch 5.6 and MongoDB 3.4 era); the published run started with "
                        + "35 shards and went to 100 at about 1.5 billion, when its shards reached their limit: its "
                        + "shards were larger than the planner's " + (int) SHARD_GIB + " GiB target.",
                "- **MongoDB's cache.** The planner keeps every index in WiredTiger's cache, so that the import does "
                        + "not slow down as the repository grows. The published run kept one M60 (31 GiB of cache) "
                        + "to 1 billion and throttled its import there from 5.5K to 2.5K docs/s, then moved to an "
                        + "M200 for 2 billion (`seeds/000`): it traded import speed for fewer nodes.",
                "- **Reindex hours.** The planner is asked for the published hours and sizes every side to meet "
                        + "them: its error there shows only the rounding up of nodes; the workers row is the "
                        + "comparison.",
                "- **The calibration's machine.** Every service shared " + calibration.machine().cores() + " cores: a "
                        + "store's CPU includes its share of the contention, and no network hop between hosts. The "
                        + "planner counts a MongoDB primary's CPU, not its secondaries' replication, and no IOPS: the "
                        + "published MongoDB tiers were chosen for their NVMe IO. The engine here is "
                        + calibration.machine().searchEngine() + "; the published run used AWS Elasticsearch Service "
                        + "7.x.",
                "- **Replicas.** The 11.3-billion plan uses the replicas `topologies/11b.yaml` names (none: it is "
                        + "laid out for one machine); the others one replica per shard.", ""));
        Report.write(folder, "plan-vs-published", json, String.join("\n", lines));
    }

    /** The costs as functions of size, each with its form, coefficients, residual and the sizes it was fitted on. */
    private static List<String> functions(Calibration.SizeCosts bySize) {
        List<String> lines = new ArrayList<>(List.of("## Costs as functions of the repository's size", "",
                "Fitted to campaign " + bySize.campaign() + " (`" + BY_SIZE + ".json`, which `bin/volumizer plan "
                        + "--calibration` reads); `n` is the repository's documents. CPU in seconds, bytes as a scale "
                        + "of the calibration's, p95 in ms.", "",
                "| cost | form | function | residual | fitted on (documents) | points |", "|---|---|---|---:|---|---:|"));
        Map<String, SizeFunction> all = new LinkedHashMap<>();
        bySize.cpu().forEach((stage, byProcess) -> byProcess.forEach((process, f) -> all.put("CPU a document, "
                + stage + ", " + process, f)));
        bySize.requestCpu().forEach((scenario, byProcess) -> byProcess.forEach((process, f) -> all.put("CPU a "
                + scenario + " request, " + process, f)));
        bySize.bytesScale().forEach((store, f) -> all.put("bytes a document, " + store, f));
        bySize.p95Millis().forEach((scenario, f) -> all.put(scenario + " p95", f));
        all.forEach((cost, f) -> lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %.3g | %,.0f to %,.0f | %d |",
                cost, f.form().name().toLowerCase(Locale.ROOT), f.describe(), f.residual(), f.fromDocuments(),
                f.toDocuments(), f.points())));
        lines.add("");
        return lines;
    }

    /** Per compared row, planned ÷ published − 1, or null where the figure was not published. */
    static Map<String, Double> errors(Workload workload, Planner.Blueprint plan) {
        Map<String, Double> errors = new LinkedHashMap<>();
        errors.put(SEARCH_NODES, error(plan.searchDataNodes().count(), workload.searchNodes()));
        errors.put(PRIMARY_SHARDS, error(primaries(plan), workload.primaryShards()));
        errors.put(MONGODB_SHARDS, error(plan.mongoShards().count(), workload.mongoShards()));
        errors.put(WORKERS, error(plan.taskManagers(), workload.workerNodes()));
        errors.put(REINDEX_HOURS, error(plan.reindexHoursOnPlan(), workload.reindexHoursPublished()));
        return errors;
    }

    private static Double error(double planned, double published) {
        return published > 0 ? planned / published - 1 : null;
    }

    private static int primaries(Planner.Blueprint plan) {
        return plan.repositories().stream().mapToInt(Planner.RepositoryPlan::primaryShards).sum();
    }

    private static List<String> section(Workload workload, Planner.Blueprint plan, Planner.Blueprint ours,
            Map<String, Double> errors) {
        Planner.Request request = plan.request();
        List<String> lines = new ArrayList<>(List.of("## " + workload.name(), "",
                "Rates: " + workload.ratesSource() + ". Interactive users: " + workload.usersSource() + ". Topology: "
                        + (workload.topology() == null ? "one repository" : workload.topology()) + ". "
                        + plan.sizes(), "",
                "| | published | planned | error | planned, our documents' bytes |", "|---|---|---|---:|---|"));
        lines.add(row(SEARCH_NODES, workload.searchNodes() + " × " + workload.searchNode(), errors,
                plan.searchDataNodes().count() + " × " + request.searchNode().name() + needs(plan.searchDataNodes()),
                Integer.toString(ours.searchDataNodes().count())));
        lines.add(row(PRIMARY_SHARDS, workload.primaryShards() > 0 ? Integer.toString(workload.primaryShards())
                : NOT_PUBLISHED, errors, primaries(plan) + String.format(Locale.ROOT, " (%,.0f GiB of primaries)",
                        searchGiB(plan)), primaries(ours) + String.format(Locale.ROOT, " (%,.0f GiB)", searchGiB(ours))));
        lines.add(row(MONGODB_SHARDS, workload.mongodb(), errors, plan.mongoShards().count() + " × "
                + request.mongoNode().name() + " (" + plan.mongoNodes() + " nodes)" + needs(plan.mongoShards()),
                Integer.toString(ours.mongoShards().count())));
        lines.add(row(WORKERS, workload.workers(), errors, plan.taskManagers() + " TaskManagers × "
                + request.flinkNode().name() + String.format(Locale.ROOT, " (slots: import %d, index %d, reindex %d)",
                        plan.importSlots().count(), plan.indexSlots().count(), plan.reindexSlots().count()),
                Integer.toString(ours.taskManagers())));
        lines.add(row(REINDEX_HOURS, workload.reindexHoursPublished() > 0 ? String.format(Locale.ROOT, "%.1f h",
                workload.reindexHoursPublished()) : NOT_PUBLISHED + String.format(Locale.ROOT, " (%.1f h asked)",
                        request.reindexHours()), errors, String.format(Locale.ROOT, "%.1f h on the planned nodes "
                                + "(limited by the %s)", plan.reindexHoursOnPlan(), plan.reindexLimit()),
                String.format(Locale.ROOT, "%.1f h", ours.reindexHoursOnPlan())));
        lines.add("| Kafka | " + workload.kafka() + " | " + plan.kafkaPartitions().count() + " partitions, "
                + String.format(Locale.ROOT, "%,.0f GiB", plan.kafkaStorageGiB()) + " | | |");
        lines.add("| bytes a document: MongoDB data + indexes; search primary | "
                + bytes(plan) + " (seeds/001, 100M documents) | " + bytes(plan) + " | | " + bytes(ours) + " |");
        lines.add("");
        return lines;
    }

    private static double searchGiB(Planner.Blueprint plan) {
        return plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::searchPrimaryGiB).sum();
    }

    private static String bytes(Planner.Blueprint plan) {
        double documents = plan.request().documents();
        double data = plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::mongoDataGiB).sum();
        double index = plan.repositories().stream().mapToDouble(Planner.RepositoryPlan::mongoIndexGiB).sum();
        return String.format(Locale.ROOT, "%,.0f + %,.0f; %,.0f", data * GIB / documents, index * GIB / documents,
                searchGiB(plan) * GIB / documents);
    }

    private static String row(String what, String published, Map<String, Double> errors, String planned,
            String ours) {
        Double error = errors.get(what);
        return "| " + what + " | " + published + " | " + planned + " | " + (error == null ? NOT_PUBLISHED
                : String.format(Locale.ROOT, "%+.0f%%", error * 100)) + " | " + ours + " |";
    }

    private static String needs(Planner.Sized sized) {
        StringBuilder text = new StringBuilder(" (");
        sized.needs().forEach((constraint, need) -> text.append(text.length() > 2 ? "; " : "").append(constraint)
                .append(String.format(Locale.ROOT, " %.1f", need)));
        return text.append(')').toString();
    }
}
