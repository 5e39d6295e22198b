package io.volumizer.ops.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.domain.topology.Topology;
import io.volumizer.ops.plan.NodeTypes.NodeType;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;

/**
 * A blueprint from measured costs: each repository's share of the documents (routed as the generate job routes
 * them) times what a document of each type costs (a {@link Calibration}), against the node types asked for. Every
 * rule of thumb it applies is a named constant, and each is printed with the plan.
 */
public final class Planner {

    /** Nodes are sized to run at this share of their CPU at the rates asked: the rest absorbs merges and peaks. */
    static final double CPU_TARGET = 0.7;
    /** A data disk is filled to this share: Elasticsearch stops allocating at 85% (its low watermark), merges need room. */
    static final double DISK_FILL = 0.75;
    /** Elasticsearch's guidance: at most 20 shards per GiB of heap. */
    static final double SHARDS_PER_HEAP_GIB = 20;
    /** Elasticsearch's heap: half the memory, at most 31 GiB (compressed pointers). */
    static final double MAX_HEAP_GIB = 31;
    /** MongoDB's WiredTiger cache: half of the memory less 1 GiB; the indexes must fit in it (the seeds' limit). */
    static final double WIRED_TIGER_SHARE = 0.5;
    /** Members of a MongoDB replica set (a shard). */
    static final int REPLICA_SET_MEMBERS = 3;
    /** Kafka's replication factor. */
    static final int KAFKA_REPLICATION = 3;
    /** A Flink slot is a vCPU. */
    static final int SLOTS_PER_VCPU = 1;
    /**
     * The Flink Kubernetes Operator's autoscaler may give a step up to this many times its planned slots, to drain a
     * backlog within its catch-up duration; the topics get a partition for each of those readers.
     */
    static final double AUTOSCALER_HEADROOM = 2;
    /** Replicas of a repository's index where the topology names none: one machine's 0 loses data on a cluster. */
    static final int DEFAULT_REPLICAS = 1;

    static final double GIB = 1024.0 * 1024 * 1024;

    private Planner() {
    }

    /** Interactive users' load: navigation and search requests a second, beside the import. */
    public record Interactive(double navigationPerSecond, double searchPerSecond) {
        public static final Interactive NONE = new Interactive(0, 0);

        public Interactive {
            if (!(navigationPerSecond >= 0) || !(searchPerSecond >= 0)) {
                throw new IllegalArgumentException("navigation and search requests a second must be >= 0, were "
                        + navigationPerSecond + " and " + searchPerSecond);
            }
        }

        public boolean any() {
            return navigationPerSecond > 0 || searchPerSecond > 0;
        }
    }

    /** What a plan is asked for. */
    public record Request(double documents, double importRate, double reindexHours, double targetShardGiB,
            double kafkaRetentionHours, Interactive interactive, NodeType searchNode, NodeType mongoNode,
            NodeType flinkNode) {
        public Request {
            if (!(documents > 0) || !(importRate > 0) || !(reindexHours > 0) || !(kafkaRetentionHours > 0)) {
                throw new IllegalArgumentException("a plan needs documents, an import rate, reindex hours and a Kafka "
                        + "retention, each > 0");
            }
            if (!(targetShardGiB >= 10 && targetShardGiB <= 50)) {
                throw new IllegalArgumentException("--shard-size must be between 10 and 50 GiB (Elasticsearch's "
                        + "guidance for search shards), was " + targetShardGiB);
            }
        }
    }

    /** One repository's part: its documents, their bytes in each store, and its index's primary shards. */
    public record RepositoryPlan(String repository, String profile, double documents, double mongoDataGiB,
            double mongoIndexGiB, double blobGiB, double searchPrimaryGiB, int primaryShards, int replicas,
            double shardGiB, int shardsInTopology) {
    }

    /** A count of nodes (or slots, or partitions) and what each constraint alone would need. */
    public record Sized(int count, Map<String, Double> needs) {
        static Sized of(Map<String, Double> needs) {
            int count = (int) Math.max(1, Math.ceil(needs.values().stream().mapToDouble(Double::doubleValue).max()
                    .orElse(1) - 1e-9));
            return new Sized(count, needs);
        }
    }

    /**
     * @param reindexRate       docs/s a full reindex must run at to end in the hours asked
     * @param sizes             at which sizes the costs were evaluated, and how far past the largest one measured
     * @param p95Millis         per interactive scenario, the p95 latency the campaign's fit gives at the size planned
     *                          (at the campaign's rate, on its machine)
     * @param reindexHoursOnPlan the hours a full reindex takes on the planned nodes, limited by {@code reindexLimit}
     */
    public record Blueprint(Request request, List<RepositoryPlan> repositories, Sized mongoShards, int mongoNodes,
            Sized searchDataNodes, Sized importSlots, Sized indexSlots, Sized fileTextSlots, Sized reindexSlots,
            int taskManagers,
            Sized kafkaPartitions, double kafkaStorageGiB, double reindexRate, double reindexHoursOnPlan,
            String reindexLimit, String sizes, Map<String, Double> p95Millis, List<String> assumptions) {
    }

    public static Blueprint plan(Request request, Calibration calibration, Topology topology, DocumentShares shares) {
        List<RepositoryPlan> repositories = new ArrayList<>();
        double mongoData = 0;
        double mongoIndex = 0;
        double searchStored = 0;
        int shardCopies = 0;
        // CPU seconds a document of the run costs, weighted by where its documents go (an index stage writes each
        // shard copy; a reindex loads without replicas, which recover afterwards by copying segments)
        double indexFlink = 0;
        double indexSearch = 0;
        // What reading the files' text adds to a live repository's index stage: a file-text job of its own spends it
        double fileTextFlink = 0;
        double reindexFlink = 0;
        double reindexSearch = 0;
        double reindexMongo = 0;
        double importFlink = 0;
        double importMongo = 0;
        // Each repository's costs at its own size: its collection and its index are what grow
        double largestRepository = 0;
        for (String repository : topology.repositories()) {
            IndexLayout layout = topology.indexLayouts().getOrDefault(repository, IndexLayout.TEMPLATE);
            String profile = layout.profile().id();
            int replicas = layout.replicas() != null ? layout.replicas() : DEFAULT_REPLICAS;
            double share = shares.of(repository);
            double size = request.documents() * share;
            largestRepository = Math.max(largestRepository, size);
            double dataScale = calibration.bytesScale(Calibration.MONGODB_DATA, size);
            double indexScale = calibration.bytesScale(Calibration.MONGODB_INDEXES, size);
            double searchScale = calibration.bytesScale(Calibration.SEARCH_PRIMARY, size);
            double data = 0;
            double index = 0;
            double blob = 0;
            double search = 0;
            for (Map.Entry<String, Double> type : shares.shares().getOrDefault(repository, Map.of()).entrySet()) {
                double documents = request.documents() * type.getValue();
                Calibration.TypeCosts costs = calibration.types().get(type.getKey());
                if (costs == null) {
                    throw new IllegalArgumentException("the calibration has no costs for documents of type "
                            + type.getKey());
                }
                data += documents * costs.mongoDataBytes() * dataScale;
                index += documents * costs.mongoIndexBytes() * indexScale;
                blob += documents * costs.blobBytes();
                Double searchBytes = costs.searchBytes().get(profile);
                if (searchBytes == null) {
                    throw new IllegalArgumentException("the calibration has no search-engine size of " + type.getKey()
                            + " documents in a " + profile + " index");
                }
                search += documents * searchBytes * searchScale;
            }
            String indexStage = calibration.stage("index", profile);
            String reindexStage = calibration.stage("reindex", profile);
            importFlink += share * calibration.cpuSeconds("import", Calibration.FLINK, size);
            importMongo += share * calibration.cpuSeconds("import", Calibration.MONGODB, size);
            indexFlink += share * calibration.cpuSeconds(indexStage, Calibration.FLINK, size);
            if (layout.profile() == IndexProfile.LIVE) {
                fileTextFlink += share * Math.max(0, calibration.cpuSeconds(indexStage, Calibration.FLINK, size)
                        - calibration.cpuSeconds(calibration.stage("index", IndexProfile.METADATA.id()),
                                Calibration.FLINK, size));
            }
            indexSearch += share * calibration.cpuSeconds(indexStage, Calibration.SEARCH, size) * (1 + replicas);
            reindexFlink += share * calibration.cpuSeconds(reindexStage, Calibration.FLINK, size);
            reindexSearch += share * calibration.cpuSeconds(reindexStage, Calibration.SEARCH, size);
            reindexMongo += share * calibration.cpuSeconds(reindexStage, Calibration.MONGODB, size);
            int primaries = (int) Math.max(1, Math.ceil(search / GIB / request.targetShardGiB()));
            repositories.add(new RepositoryPlan(repository, profile, request.documents() * share, data / GIB,
                    index / GIB, blob / GIB, search / GIB, primaries, replicas, search / GIB / primaries,
                    layout.shards() != null ? layout.shards() : 0));
            mongoData += data;
            mongoIndex += index;
            searchStored += search * (1 + replicas);
            shardCopies += primaries * (1 + replicas);
        }
        double reindexRate = request.documents() / (request.reindexHours() * 3600);
        NodeType mongo = request.mongoNode();
        NodeType search = request.searchNode();

        double wiredTigerCache = WIRED_TIGER_SHARE * (mongo.memoryGiB() - 1);
        Map<String, Double> mongoNeeds = new LinkedHashMap<>();
        mongoNeeds.put("indexes in the WiredTiger cache", mongoIndex / GIB / wiredTigerCache);
        mongoNeeds.put("data and indexes on disk", (mongoData + mongoIndex) / GIB / (mongo.diskGiB() * DISK_FILL));
        mongoNeeds.put("import CPU (primaries)", request.importRate() * importMongo / (mongo.vcpu() * CPU_TARGET));
        mongoNeeds.put("reindex reads CPU (primaries)", reindexRate * reindexMongo / (mongo.vcpu() * CPU_TARGET));
        Interactive users = request.interactive();
        if (users.any()) {
            mongoNeeds.put("interactive reads CPU (primaries)", interactiveCpu(users, calibration, Calibration.MONGODB,
                    request.documents()) / (mongo.vcpu() * CPU_TARGET));
        }
        Sized mongoShards = Sized.of(mongoNeeds);

        double heap = Math.min(MAX_HEAP_GIB, search.memoryGiB() / 2);
        Map<String, Double> searchNeeds = new LinkedHashMap<>();
        searchNeeds.put("index on disk, with replicas", searchStored / GIB / (search.diskGiB() * DISK_FILL));
        searchNeeds.put("shards per heap", shardCopies / (SHARDS_PER_HEAP_GIB * heap));
        searchNeeds.put("import indexing CPU, with replicas", request.importRate() * indexSearch
                / (search.vcpu() * CPU_TARGET));
        searchNeeds.put("reindex indexing CPU", reindexRate * reindexSearch / (search.vcpu() * CPU_TARGET));
        if (users.any()) {
            searchNeeds.put("interactive navigation and search CPU", interactiveCpu(users, calibration,
                    Calibration.SEARCH, request.documents()) / (search.vcpu() * CPU_TARGET));
        }
        Sized searchNodes = Sized.of(searchNeeds);

        Sized importSlots = slots("import", request.importRate() * importFlink);
        Sized indexSlots = slots("index", request.importRate() * indexFlink);
        Sized fileTextSlots = fileTextFlink > 0 ? slots("file text", request.importRate() * fileTextFlink)
                : new Sized(0, Map.of());
        Sized reindexSlots = slots("reindex", reindexRate * reindexFlink);
        int slots = importSlots.count() + indexSlots.count() + reindexSlots.count();
        int taskManagers = (int) Math.ceil(slots / (double) (request.flinkNode().vcpu() * SLOTS_PER_VCPU));

        Map<String, Double> partitionNeeds = new LinkedHashMap<>();
        partitionNeeds.put("import readers", (double) importSlots.count());
        partitionNeeds.put("index readers", (double) indexSlots.count());
        partitionNeeds.put("the autoscaler's ceiling of import readers", autoscalerCeiling(importSlots));
        partitionNeeds.put("the autoscaler's ceiling of index readers", autoscalerCeiling(indexSlots));
        Sized partitions = Sized.of(partitionNeeds);
        double eventBytes = calibration.kafkaBytesPerEvent().values().stream().mapToDouble(Double::doubleValue).sum();
        double retained = Math.min(request.documents(), request.importRate() * request.kafkaRetentionHours() * 3600);
        double kafkaStorage = retained * eventBytes * KAFKA_REPLICATION / GIB;

        // The reindex on the planned nodes: the slowest of what each side can take
        Map<String, Double> reindexRates = new LinkedHashMap<>();
        reindexRates.put("Flink slots", rate(reindexSlots.count() / (double) SLOTS_PER_VCPU * CPU_TARGET, reindexFlink));
        reindexRates.put("search data nodes", rate(searchNodes.count() * search.vcpu() * CPU_TARGET, reindexSearch));
        reindexRates.put("MongoDB primaries", rate(mongoShards.count() * mongo.vcpu() * CPU_TARGET, reindexMongo));
        Map.Entry<String, Double> slowest = reindexRates.entrySet().stream().min(Map.Entry.comparingByValue())
                .orElseThrow();

        return new Blueprint(request, repositories, mongoShards, mongoShards.count() * REPLICA_SET_MEMBERS,
                searchNodes, importSlots, indexSlots, fileTextSlots, reindexSlots, taskManagers, partitions,
                kafkaStorage, reindexRate, request.documents() / slowest.getValue() / 3600, slowest.getKey(),
                sizes(calibration, users.any() ? request.documents() : largestRepository),
                p95(calibration, request.documents()), assumptions(calibration));
    }

    /**
     * CPU seconds a second the interactive load costs {@code process}, each request's cost at the repository's whole
     * size (a search or a listing may span every repository).
     */
    private static double interactiveCpu(Interactive users, Calibration calibration, String process, double size) {
        double cpu = 0;
        if (users.navigationPerSecond() > 0) {
            cpu += users.navigationPerSecond() * calibration.requestCpuSeconds(Calibration.NAVIGATION, process, size);
        }
        if (users.searchPerSecond() > 0) {
            cpu += users.searchPerSecond() * calibration.requestCpuSeconds(Calibration.SEARCH_REQUESTS, process, size);
        }
        return cpu;
    }

    /** Where the costs were evaluated against where they were measured: an extrapolation said, and how far. */
    private static String sizes(Calibration calibration, double evaluated) {
        double measured = calibration.largestMeasuredDocuments();
        if (measured == 0) {
            return "Every cost is a constant measured at one size: none follows the repository's size.";
        }
        if (evaluated <= measured) {
            return String.format(java.util.Locale.ROOT, "Costs evaluated at up to %,.0f documents, within the sizes "
                    + "measured (up to %,.0f).", evaluated, measured);
        }
        return String.format(java.util.Locale.ROOT, "Extrapolated: costs evaluated at up to %,.0f documents, %,.1f× "
                + "the largest size measured (%,.0f).", evaluated, evaluated / measured, measured);
    }

    private static Map<String, Double> p95(Calibration calibration, double size) {
        Map<String, Double> p95 = new LinkedHashMap<>();
        calibration.bySize().p95Millis().forEach((scenario, function) -> p95.put(scenario, function.at(size)));
        return p95;
    }

    /** The slots a step needs to spend {@code cpuSeconds} a second at the CPU target. */
    private static Sized slots(String step, double cpuSeconds) {
        return Sized.of(Map.of(step + " CPU", cpuSeconds / CPU_TARGET * SLOTS_PER_VCPU));
    }

    /** The most slots the autoscaler may give a step planned at {@code planned}. */
    static double autoscalerCeiling(Sized planned) {
        return Math.ceil(planned.count() * AUTOSCALER_HEADROOM);
    }

    private static double rate(double cpuSecondsPerSecond, double cpuSecondsPerDocument) {
        return cpuSecondsPerDocument > 0 ? cpuSecondsPerSecond / cpuSecondsPerDocument : Double.POSITIVE_INFINITY;
    }

    private static List<String> assumptions(Calibration calibration) {
        Calibration.Machine machine = calibration.machine();
        List<String> assumptions = new ArrayList<>(List.of(
                "Costs per document measured on " + machine.cores() + " cores (" + machine.description() + "), "
                        + machine.searchEngine() + ", " + machine.measured() + ": every process on the same cores, so a "
                        + "store's CPU share includes its share of the contention.",
                "Documents split by repository and type as a generated sample routes them; a bank's own mix changes it.",
                String.format(java.util.Locale.ROOT, "Nodes run at %.0f%% CPU at the rates asked; disks fill to %.0f%%.",
                        CPU_TARGET * 100, DISK_FILL * 100),
                "MongoDB: the indexes fit in the WiredTiger cache (half the memory less 1 GiB); data as measured by the "
                        + "stand-in (uncompressed BSON: WiredTiger's compression makes it smaller); "
                        + REPLICA_SET_MEMBERS + " members a shard; writes and reads CPU on the primaries.",
                "Search engine: shard size as asked, at most " + (int) SHARDS_PER_HEAP_GIB + " shards per GiB of heap "
                        + "(heap half the memory, at most " + (int) MAX_HEAP_GIB + " GiB); " + DEFAULT_REPLICAS
                        + " replica where the topology names none; replicas index beside an import, and are copied "
                        + "after a reindex (which loads without them).",
                "One MongoDB cluster holds every repository; a repository the topology gives a deployment of its own "
                        + "needs its share of it apart.",
                "Flink: a slot per vCPU; import, index and reindex each their own slots (a live repository's file text "
                        + "in the index's, or apart in a file-text job); the autoscaler may take a step to "
                        + (int) AUTOSCALER_HEADROOM + "× its slots. Kafka: a partition per reader at that ceiling, "
                        + "replication " + KAFKA_REPLICATION + ", the documents and imported topics kept for the retention.",
                "Import and reindex are sized apart (a reindex does not run at full speed beside a full-speed import).",
                "Interactive requests are sized at the same CPU target on the stores they read, beside the import and "
                        + "beside the reindex; the API's own nodes are not planned."));
        assumptions.addAll(calibration.sources());
        return assumptions;
    }
}
