package io.volumizer.benchmarks.calibration;

import java.util.List;

/**
 * The published layouts the planner is checked against: Nuxeo's 11-billion-document benchmark (phase 1: one
 * repository grown to 3 billion; phase 2: three repositories, 11.3 billion), as its write-up gives them
 * ({@code ../shared/seeds/000}), and the 100-million run's bytes per document ({@code seeds/001}).
 */
final class PublishedLayouts {

    /** seeds/001: MongoDB "average document size is 1058 bytes"; 19.4 GiB of indexes for 100 million documents. */
    static final double MONGODB_DOCUMENT_BYTES = 1058;
    static final double MONGODB_INDEX_BYTES = 19.4 * 1024 * 1024 * 1024 / 100e6;
    /** seeds/001: "The Elasticsearch storage size is 117GiB" for 100 million documents, without replication. */
    static final double SEARCH_BYTES = 117.0 * 1024 * 1024 * 1024 / 100e6;

    private PublishedLayouts() {
    }

    /**
     * A published workload and what ran it.
     *
     * @param topology     a topology file under the checkout (null: one repository)
     * @param ratesSource  where the import rate and reindex hours come from
     * @param searchNodes  search data nodes
     * @param primaryShards primary shards in all (0: not published)
     * @param mongodb      the MongoDB deployment, as published
     * @param mongoShards  its shards (1: not sharded)
     * @param workers      nodes that ran the import, indexing and reindex (Nuxeo worker and importer nodes)
     * @param kafka        the Kafka deployment, as published
     */
    record Workload(String name, double documents, double importRate, double reindexHours, String topology,
            String ratesSource, String searchNode, String mongoNode, String flinkNode, int searchNodes,
            int primaryShards, String mongodb, int mongoShards, String workers, String kafka) {
    }

    static final List<Workload> WORKLOADS = List.of(
            new Workload("1 billion documents (phase 1)", 1e9, 5_500, 24, null,
                    "import and index at about 5.5K docs/s (phase 1); reindex hours not published at 1B: the 24 h of "
                            + "phase 1's 3B reindex",
                    "r5.2xlarge", "atlas-M60-nvme", "m5.xlarge", 9, 35, "Atlas M60 NVMe, not sharded (3 nodes)", 1,
                    "2 × m5.xlarge workers", "2 × m5.large.msk, 48 partitions"),
            new Workload("3 billion documents (phase 1 layout, phase 2 rates)", 3e9, 25_000, 14, null,
                    "25,000 docs/s import with 2 importer nodes into a 5-shard MongoDB; reindex of 3B in 14 h "
                            + "(57,000 docs/s) with 8 worker nodes (phase 2)",
                    "m5.4xlarge", "atlas-M80-nvme", "m5.xlarge", 16, 100,
                    "Atlas M200 NVMe not sharded (phase 1); 5 × M80 NVMe shards for the 25K docs/s import (phase 2)", 5,
                    "8 × m5.xlarge workers for the reindex (9 for phase 1's 24 h one); 2 importer nodes",
                    "2 × m5.large.msk, 48 partitions"),
            new Workload("11.3 billion documents in three repositories (phase 2)", 11.34e9, 15_000,
                    11.34e9 / 57_000 / 3600, "topologies/11b.yaml",
                    "import and index at 15,000 docs/s (phase 2's pipeline); reindex at the published 57,000 docs/s "
                            + "(the hours for all 11.3B; phase 2 reindexed the 3B archive in 14 h)",
                    "m5.4xlarge", "atlas-M80-nvme", "m5.xlarge", 16, 0,
                    "5 × M80 NVMe shards for the archives (8.6 TB, later 5 × M40 EBS); the live repositories' not "
                            + "detailed", 5,
                    "2 to 8 × m5.xlarge workers, 2 importer nodes", "2 × m5.large.msk"));
}
