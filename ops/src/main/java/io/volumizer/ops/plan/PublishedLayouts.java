package io.volumizer.ops.plan;

import java.util.List;
import java.util.Locale;

/**
 * The published layouts the planner is checked against: Nuxeo's 11-billion-document benchmark (phase 1: one
 * repository grown to 3 billion; phase 2: three repositories, 11.3 billion), as its write-up gives them
 * ({@code ../shared/seeds/000}), with the interactive load its Gatling runs put on them. The 100-million run's bytes
 * a document ({@code seeds/001}) are {@link io.volumizer.ops.plan.DocumentBytes#published}.
 */
final class PublishedLayouts {

    /** seeds/001: Elasticsearch indexing "gives 649 docs/s per vCPU" (Nuxeo's documents, Elasticsearch 5.6). */
    static final double INDEXED_PER_VCPU_SECOND = 649;
    /** seeds/000, phase 2's Gatling results at 11.3 billion documents: "Throughput: 830+ request/s". */
    static final double NAVIGATION_PER_SECOND = 830;
    /** seeds/000, phase 2's Gatling results: "Throughput: 400+ request/s". */
    static final double SEARCH_PER_SECOND = 400;
    private static final String RATES = String.format(Locale.ROOT, "navigation %,.0f and search %,.0f requests a "
            + "second", NAVIGATION_PER_SECOND, SEARCH_PER_SECOND);
    private static final String PHASE_2_USERS = RATES + ": phase 2's Gatling throughputs at 11.3 billion (seeds/000; "
            + "the threads behind them are in a chart, not the text)";
    private static final String PHASE_1_USERS = "assumed: phase 2's Gatling throughputs (" + RATES + "); phase 1's "
            + "are published as a chart only (seeds/000, \"Raw performance results\")";

    private PublishedLayouts() {
    }

    /**
     * A published workload and what ran it.
     *
     * @param topology       a topology file under the checkout (null: one repository)
     * @param ratesSource    where the import rate and reindex hours come from
     * @param usersSource    where the interactive load comes from
     * @param searchNodes    search data nodes
     * @param primaryShards  primary shards in all (0: not published)
     * @param mongodb        the MongoDB deployment, as published
     * @param mongoShards    its shards (1: not sharded; 0: not published for the whole repository)
     * @param workers        nodes that ran the import, indexing and reindex (Nuxeo worker and importer nodes)
     * @param workerNodes    how many, at most
     * @param reindexHoursPublished the hours a full reindex of these documents took (0: not published)
     * @param kafka          the Kafka deployment, as published
     */
    record Workload(String name, double documents, double importRate, double reindexHours, String topology,
            String ratesSource, double navigationPerSecond, double searchPerSecond, String usersSource,
            String searchNode, String mongoNode, String flinkNode, int searchNodes, int primaryShards, String mongodb,
            int mongoShards, String workers, int workerNodes, double reindexHoursPublished, String kafka) {
    }

    static final List<Workload> WORKLOADS = List.of(
            new Workload("1 billion documents (phase 1)", 1e9, 5_500, 24, null,
                    "import and index at about 5.5K docs/s (phase 1); reindex hours not published at 1B: the 24 h of "
                            + "phase 1's 3B reindex",
                    NAVIGATION_PER_SECOND, SEARCH_PER_SECOND, PHASE_1_USERS,
                    "r5.2xlarge", "atlas-M60-nvme", "m5.xlarge", 9, 35, "Atlas M60 NVMe, not sharded (3 nodes)", 1,
                    "2 × m5.xlarge workers", 2, 0, "2 × m5.large.msk, 48 partitions"),
            new Workload("3 billion documents (phase 1 layout, phase 2 rates)", 3e9, 25_000, 14, null,
                    "25,000 docs/s import with 2 importer nodes into a 5-shard MongoDB; reindex of 3B in 14 h "
                            + "(57,000 docs/s) with 8 worker nodes (phase 2)",
                    NAVIGATION_PER_SECOND, SEARCH_PER_SECOND, PHASE_1_USERS,
                    "m5.4xlarge", "atlas-M80-nvme", "m5.xlarge", 16, 100,
                    "Atlas M200 NVMe not sharded (phase 1); 5 × M80 NVMe shards for the 25K docs/s import (phase 2)", 5,
                    "8 × m5.xlarge workers for the reindex (9 for phase 1's 24 h one); 2 importer nodes", 10, 14,
                    "2 × m5.large.msk, 48 partitions"),
            new Workload("11.3 billion documents in three repositories (phase 2)", 11.34e9, 15_000,
                    11.34e9 / 57_000 / 3600, "topologies/11b.yaml",
                    "import and index at 15,000 docs/s (phase 2's pipeline); reindex at the published 57,000 docs/s "
                            + "(the hours for all 11.3B; phase 2 reindexed the 3B archive in 14 h)",
                    NAVIGATION_PER_SECOND, SEARCH_PER_SECOND, PHASE_2_USERS,
                    "m5.4xlarge", "atlas-M80-nvme", "m5.xlarge", 16, 0,
                    "5 × M80 NVMe shards for the archives (8.6 TB, later 5 × M40 EBS); the live repositories' not "
                            + "detailed", 0,
                    "2 to 8 × m5.xlarge workers, 2 importer nodes", 10, 0, "2 × m5.large.msk"));
}
