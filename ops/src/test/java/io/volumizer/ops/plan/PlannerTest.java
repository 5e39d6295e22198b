package io.volumizer.ops.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.plan.NodeTypes.NodeType;

class PlannerTest {

    private static final double GIB = Planner.GIB;
    private static final NodeType NODE = new NodeType("test.large", 10, 21, 1000);
    private static final Topology ONE = TopologyFile.parse("test", """
            repositories:
              demo: {index: {replicas: 1}}
            routing:
              - to: demo
            """);
    /** Every document a Statement: the repository holds all of them. */
    private static final DocumentShares ALL_STATEMENTS = new DocumentShares(Map.of("demo", Map.of("Statement", 1.0)));

    /** 1 GiB of indexes and 10 GiB of search index per million documents; {@code cpuSeconds} of each process. */
    private static Calibration calibration(double cpuSeconds) {
        return calibration(cpuSeconds, cpuSeconds);
    }

    private static Calibration calibration(double cpuSeconds, double reindexSearchCpuSeconds) {
        Calibration.TypeCosts statement = new Calibration.TypeCosts(1500, GIB / 1e6, Map.of("metadata", 10 * GIB / 1e6),
                40_000);
        Map<String, Double> each = Map.of(Calibration.FLINK, cpuSeconds, Calibration.MONGODB, cpuSeconds,
                Calibration.SEARCH, cpuSeconds);
        Map<String, Double> reindex = Map.of(Calibration.FLINK, cpuSeconds, Calibration.MONGODB, cpuSeconds,
                Calibration.SEARCH, reindexSearchCpuSeconds);
        return new Calibration(new Calibration.Machine(2, "test", "opensearch 3.6.0", "2026-11-28"),
                Map.of("Statement", statement), Map.of("import", each, "index", each, "reindex", reindex),
                Map.of("documents", 600.0, "imported", 900.0));
    }

    private static Planner.Request request(double documents, double importRate, double reindexHours) {
        return new Planner.Request(documents, importRate, reindexHours, 30, 8, Planner.Interactive.NONE, NODE, NODE,
                NODE);
    }

    @Test
    void sizesEachStoreByItsTightestConstraint() {
        Planner.Blueprint plan = Planner.plan(request(1e9, 7000, 10), calibration(0.001), ONE, ALL_STATEMENTS);

        Planner.RepositoryPlan demo = plan.repositories().get(0);
        assertThat(demo.searchPrimaryGiB()).isCloseTo(10_000, within(1e-6));
        assertThat(demo.primaryShards()).as("10,000 GiB in shards of 30 GiB at most").isEqualTo(334);
        assertThat(demo.mongoIndexGiB()).isCloseTo(1000, within(1e-6));
        // 1,000 GiB of indexes in caches of 0.5 * (21 - 1) = 10 GiB
        assertThat(plan.mongoShards().count()).isEqualTo(100);
        assertThat(plan.mongoShards().needs()).containsEntry("indexes in the WiredTiger cache", 100.0);
        assertThat(plan.mongoNodes()).isEqualTo(300);
        // 20,000 GiB with a replica on disks of 750 usable GiB: 26.7 -> 27; shards: 668 copies / (20 * 10.5) = 3.2;
        // import: 7,000 docs/s * 1 ms * 2 copies / (10 * 0.7) = 2; reindex (no replica while it loads): 27,778 docs/s
        // * 1 ms / 7 = 4.0
        assertThat(plan.searchDataNodes().count()).isEqualTo(27);
        assertThat(plan.searchDataNodes().needs()).containsEntry("import indexing CPU, with replicas", 2.0);
        assertThat(plan.searchDataNodes().needs().get("reindex indexing CPU")).isCloseTo(1e9 / 36_000 * 0.001 / 7,
                within(1e-9));
        assertThat(plan.reindexRate()).isCloseTo(1e9 / 36_000, within(1e-6));
        // 7,000 docs/s * 1 ms / 0.7 per slot
        assertThat(plan.importSlots().count()).isEqualTo(10);
        assertThat(plan.reindexSlots().count()).as("27,778 docs/s * 1 ms / 0.7").isEqualTo(40);
        assertThat(plan.kafkaPartitions().count()).as("a reader for each slot the autoscaler may give the import: 2 * 10")
                .isEqualTo(20);
        // 8 h at 7,000 docs/s, 1,500 bytes an event, 3 copies
        assertThat(plan.kafkaStorageGiB()).isCloseTo(7000 * 8 * 3600 * 1500.0 * 3 / GIB, within(1e-6));
        assertThat(plan.reindexHoursOnPlan()).as("at most the hours asked: each side sized for that rate")
                .isLessThanOrEqualTo(10.0 + 1e-9);
    }

    @Test
    void printsEachRepositoryEachClusterAndTheAssumptions() {
        Planner.Blueprint plan = Planner.plan(request(1e9, 7000, 10), calibration(0.001), ONE, ALL_STATEMENTS);

        String markdown = PlanCommand.markdown(plan, ONE.source());

        assertThat(markdown).contains("# Plan: 1,000,000,000 documents, import at 7,000 docs/s, full reindex in 10.0 h")
                .contains("| demo | metadata | 1,000,000,000 | 1,397 | 1,000 | 37,253 | 10,000 | 334 | 29.9 | 1 | - |")
                .contains("| MongoDB shards (3 members each: 300 nodes) | 100 | test.large | indexes in the WiredTiger "
                        + "cache 100; data and indexes on disk 3.2;")
                .contains("| search data nodes | 27 | test.large | index on disk, with replicas 26.7;")
                .contains("A full reindex must run at 27,778 docs/s")
                .contains("- Nodes run at 70% CPU at the rates asked; disks fill to 75%.");
    }

    @Test
    void aReindexOnThePlannedNodesIsAsFastAsItsSlowestSide() {
        // 3.6e8 documents in 1 h: 100,000 docs/s. Flink: 100,000 * 10 ms / 0.7 = 1,428.6 -> 1,429 slots, MongoDB
        // 142.9 -> 143 primaries, each with room; the search engine's CPU (70 ms a document) asks exactly 1,000 nodes
        Planner.Blueprint plan = Planner.plan(request(3.6e8, 100, 1), calibration(0.01, 0.07), ONE, ALL_STATEMENTS);

        assertThat(plan.searchDataNodes().count()).isEqualTo(1000);
        assertThat(plan.reindexSlots().count()).isEqualTo(1429);
        assertThat(plan.reindexLimit()).isEqualTo("search data nodes");
        assertThat(plan.reindexHoursOnPlan()).isCloseTo(1.0, within(1e-9));
    }

    /** {@code calibration(0.001)} with a search request costing the search engine 50 ms, a navigation MongoDB 5 ms. */
    private static Calibration withRequests() {
        Calibration costs = calibration(0.001);
        return costs.withRequestCpu(Map.of(Calibration.SEARCH_REQUESTS, Map.of(Calibration.SEARCH, 0.05),
                Calibration.NAVIGATION, Map.of(Calibration.MONGODB, 0.005)), "test requests");
    }

    private static Planner.Blueprint withUsers(double navigation, double search) {
        return Planner.plan(new Planner.Request(1e9, 7000, 10, 30, 8, new Planner.Interactive(navigation, search),
                NODE, NODE, NODE), withRequests(), ONE, ALL_STATEMENTS);
    }

    @Test
    void searchRequestsAskForSearchNodesAndNoneLeaveTheAnswerAsItWas() {
        Planner.Blueprint none = withUsers(0, 0);
        Planner.Blueprint before = Planner.plan(request(1e9, 7000, 10), calibration(0.001), ONE, ALL_STATEMENTS);
        assertThat(none.searchDataNodes()).isEqualTo(before.searchDataNodes());
        assertThat(none.mongoShards()).isEqualTo(before.mongoShards());
        assertThat(none.searchDataNodes().needs()).doesNotContainKey("interactive navigation and search CPU");

        // 1,000 searches a second at 50 ms: 50 CPU seconds a second over 10 vCPUs at 70%: 7.1 nodes, under the disk's
        // 27; 10,000 a second: 71.4 -> 72 nodes
        assertThat(withUsers(0, 1000).searchDataNodes().count()).isEqualTo(27);
        assertThat(withUsers(0, 1000).searchDataNodes().needs().get("interactive navigation and search CPU"))
                .isCloseTo(50 / 7.0, within(1e-9));
        assertThat(withUsers(0, 10_000).searchDataNodes().count()).isEqualTo(72);
        assertThat(withUsers(0, 20_000).searchDataNodes().count()).isGreaterThan(72);
        // Navigation reads MongoDB: 200,000 a second at 5 ms is 1,000 CPU seconds a second, 142.9 -> 143 primaries
        assertThat(withUsers(200_000, 0).mongoShards().count()).isEqualTo(143);
        assertThat(withUsers(200_000, 0).assumptions()).contains("test requests");
    }

    @Test
    void usersWithoutACostOfARequestAreAClearError() {
        assertThatThrownBy(() -> Planner.plan(new Planner.Request(1e9, 7000, 10, 30, 8, new Planner.Interactive(0, 10),
                NODE, NODE, NODE), calibration(0.001), ONE, ALL_STATEMENTS))
                .hasMessageContaining("no CPU cost of a search request");
        assertThatThrownBy(() -> new Planner.Interactive(-1, 0)).hasMessageContaining("must be >= 0");
    }

    @Test
    void thePublishedDocumentsBytesReplaceEveryTypesOwn() {
        Planner.Blueprint plan = Planner.plan(request(3e9, 25_000, 14), DocumentBytes.published.apply(calibration(0.001)),
                ONE, ALL_STATEMENTS);

        Planner.RepositoryPlan bank = plan.repositories().get(0);
        assertThat(bank.searchPrimaryGiB() * GIB / 3e9).isCloseTo(DocumentBytes.PUBLISHED_SEARCH_PRIMARY, within(1e-6));
        assertThat(bank.mongoDataGiB() * GIB / 3e9).isCloseTo(1058, within(1e-6));
        // 3e9 · 117 GiB / 1e8 = 3,510 GiB in shards of 30 GiB at most
        assertThat(bank.primaryShards()).isEqualTo(117);
        assertThat(plan.sizes()).contains("Every cost is a constant measured at one size");
    }

    @Test
    void aTypeTheCalibrationDidNotMeasureIsAClearError() {
        DocumentShares letters = new DocumentShares(Map.of("demo", Map.of("OpeningLetter", 1.0)));

        assertThatThrownBy(() -> Planner.plan(request(1e9, 7000, 10), calibration(0.001), ONE, letters))
                .hasMessageContaining("no costs for documents of type OpeningLetter");
        assertThatThrownBy(() -> new Planner.Request(1e9, 7000, 10, 60, 8, Planner.Interactive.NONE, NODE,
                NODE, NODE))
                .hasMessageContaining("between 10 and 50");
        Calibration noReindex = new Calibration(calibration(0.001).machine(), calibration(0.001).types(),
                Map.of("import", calibration(0.001).cpu().get("import"), "index", calibration(0.001).cpu().get("index")),
                Map.of());
        assertThatThrownBy(() -> Planner.plan(request(1e9, 7000, 10), noReindex, ONE, ALL_STATEMENTS))
                .hasMessageContaining("no CPU cost of flink in stage reindex");
    }

    @Test
    void theElevenBillionTopologySendsMostStatementsToTheArchive() {
        Topology elevenBillion = TopologyFile.load(Path.of("../topologies/11b.yaml"));

        DocumentShares shares = DocumentShares.of(elevenBillion, GeneratorSettings.of(1, 200));

        assertThat(shares.of("us-east") + shares.of("us-west") + shares.of("archives")).isCloseTo(1, within(1e-9));
        assertThat(shares.shares().get("archives")).containsOnlyKeys("Statement");
        // 54 of every account's 60 statements are older than 6 months (the published 9.7 of 11.3 billion)
        double statements = shares.shares().values().stream()
                .mapToDouble(byType -> byType.getOrDefault("Statement", 0.0)).sum();
        assertThat(shares.shares().get("archives").get("Statement") / statements).isCloseTo(54 / 60.0, within(0.01));
        assertThat(shares.of("us-east")).as("half the customers each, roughly").isCloseTo(shares.of("us-west"),
                within(0.03));
    }

    @Test
    void readsTheCatalogue() {
        NodeTypes catalogue = NodeTypes.parse("test", "m5.4xlarge: {vcpu: 16, memoryGiB: 64, diskGiB: 2000}\n");

        assertThat(catalogue.get("m5.4xlarge")).isEqualTo(new NodeType("m5.4xlarge", 16, 64, 2000));
        assertThatThrownBy(() -> catalogue.get("m5.large")).hasMessageContaining("no node type 'm5.large'");
        assertThatThrownBy(() -> NodeTypes.parse("test", "m5.large: {vcpu: 2}\n"))
                .hasMessageContaining("needs vcpu, memoryGiB and diskGiB");
    }
}
