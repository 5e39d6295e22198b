package io.volumizer.ops.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.Failures;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/volumizer plan}: the clusters a target needs, from the costs measured on this machine. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "Prints a blueprint (markdown) of the MongoDB, "
        + "search-engine, Flink and Kafka clusters a repository of --documents needs at --import-rate, and the time a "
        + "full reindex takes on it, from the costs per document a calibration measured.",
        footer = {"%nExample:", "  bin/volumizer plan --documents 3e9 --import-rate 25000 --reindex-hours 14 \\",
            "    --mongodb-node atlas-M80-nvme"})
public final class PlanCommand implements Callable<Integer> {

    @Option(names = "--documents", required = true, description = "Documents in all repositories (11e9 or 11000000000).")
    double documents;

    @Option(names = "--import-rate", required = true, description = "Docs/s the import must sustain.")
    double importRate;

    @Option(names = "--reindex-hours", required = true, description = "Hours a full reindex may take.")
    double reindexHours;

    @Option(names = "--topology", description = "The repositories and their routing (default: one repository).")
    Path topology;

    @Mixin
    CalibrationOptions costs = new CalibrationOptions();

    @Option(names = "--document-bytes", defaultValue = "measured", description = "Whose documents' bytes to store: "
            + "measured (the calibration's, by type) or published (the published benchmark's average document, "
            + "seeds/001, to reproduce its shards) (default: ${DEFAULT-VALUE}).")
    DocumentBytes documentBytes;

    @Option(names = "--navigation-rate", defaultValue = "0", description = "Navigation requests a second the "
            + "interactive users make (default: ${DEFAULT-VALUE}).")
    double navigationRate;

    @Option(names = "--search-rate", defaultValue = "0", description = "Search requests a second the interactive "
            + "users make (default: ${DEFAULT-VALUE}).")
    double searchRate;

    @Option(names = "--node-types", description = "The catalogue of node types (default: conf/node-types.yaml).")
    Path nodeTypes;

    @Option(names = "--search-node", defaultValue = "m5.4xlarge", description = "Search data nodes' type (default: ${DEFAULT-VALUE}).")
    String searchNode;

    @Option(names = "--mongodb-node", defaultValue = "r5.2xlarge", description = "MongoDB members' type (default: ${DEFAULT-VALUE}).")
    String mongoNode;

    @Option(names = "--flink-node", defaultValue = "m5.xlarge", description = "TaskManagers' type (default: ${DEFAULT-VALUE}).")
    String flinkNode;

    @Option(names = "--shard-size", defaultValue = "30", description = "Target primary shard size, GiB, 10 to 50 (default: ${DEFAULT-VALUE}).")
    double shardGiB;

    @Option(names = "--kafka-retention-hours", defaultValue = "8", description = "How long Kafka keeps events (default: ${DEFAULT-VALUE}).")
    double retentionHours;

    @Option(names = "--sample-customers", defaultValue = "200", description = "Customers generated to split documents by "
            + "repository and type (default: ${DEFAULT-VALUE}).")
    long sampleCustomers;

    @Option(names = "--json", description = "Also write the blueprint as JSON to this file.")
    Path json;

    @Option(names = "--helm-values", description = "Also write the Flink steps' parallelism and autoscaler bounds as "
            + "values of the chart (helm/volumizer) to this file.")
    Path helmValues;

    @Override
    public Integer call() throws Exception {
        Path root = Path.of(System.getProperty("volumizer.root", "."));
        Planner.Interactive users = new Planner.Interactive(navigationRate, searchRate);
        // A request's assumed cost is said in the plan's assumptions: only where users are asked for
        Calibration calibration = documentBytes.apply(users.any()
                ? CalibrationOptions.withAssumedRequestCosts(costs.load(root), root) : costs.load(root));
        NodeTypes catalogue = NodeTypes.read(nodeTypes != null ? nodeTypes : root.resolve("conf/node-types.yaml"));
        Topology layout = topology != null ? TopologyFile.load(topology)
                : Topology.single(GeneratorSettings.DEFAULT_REPOSITORY);
        Planner.Request request = new Planner.Request(documents, importRate, reindexHours, shardGiB, retentionHours,
                users, catalogue.get(searchNode), catalogue.get(mongoNode), catalogue.get(flinkNode));
        Planner.Blueprint plan = Planner.plan(request, calibration, layout,
                DocumentShares.of(layout, GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, sampleCustomers)));
        System.out.print(markdown(plan, layout.source()));
        if (json != null) {
            Files.writeString(json, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(plan));
        }
        if (helmValues != null) {
            Files.writeString(helmValues, HelmValues.of(plan));
        }
        return 0;
    }

    static String markdown(Planner.Blueprint plan, String topology) {
        Planner.Request request = plan.request();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "# Plan: %s documents, import at %s docs/s, full reindex in %s h%n%n",
                count(request.documents()), count(request.importRate()), number(request.reindexHours())));
        out.append("Topology: ").append(topology).append(".\n\n");
        Planner.Interactive users = request.interactive();
        if (users.navigationPerSecond() > 0 || users.searchPerSecond() > 0) {
            out.append(String.format(Locale.ROOT, "Interactive users: %s navigation and %s search requests a second.%n%n",
                    number(users.navigationPerSecond()), number(users.searchPerSecond())));
        }
        out.append(plan.sizes()).append("\n\n");
        out.append("| repository | profile | documents | MongoDB data GiB | MongoDB indexes GiB | blobs GiB "
                + "| index GiB (primary) | primary shards | GiB a shard | replicas | shards in the topology |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Planner.RepositoryPlan repository : plan.repositories()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %d | %s | %d | %s |%n",
                    repository.repository(), repository.profile(), count(repository.documents()),
                    number(repository.mongoDataGiB()), number(repository.mongoIndexGiB()), number(repository.blobGiB()),
                    number(repository.searchPrimaryGiB()), repository.primaryShards(), number(repository.shardGiB()),
                    repository.replicas(), repository.shardsInTopology() > 0 ? repository.shardsInTopology() : "-"));
        }
        out.append("\n| cluster | count | node type | what each constraint needs |\n|---|---:|---|---|\n");
        row(out, "MongoDB shards (" + Planner.REPLICA_SET_MEMBERS + " members each: " + plan.mongoNodes() + " nodes)",
                plan.mongoShards(), request.mongoNode().name());
        row(out, "search data nodes", plan.searchDataNodes(), request.searchNode().name());
        row(out, "Flink slots, import", plan.importSlots(), "");
        row(out, "Flink slots, index", plan.indexSlots(), "");
        if (plan.fileTextSlots().count() > 0) {
            row(out, "— of which the files' text, apart", plan.fileTextSlots(), "");
        }
        row(out, "Flink slots, reindex", plan.reindexSlots(), "");
        out.append(String.format(Locale.ROOT, "| TaskManagers | %d | %s | the slots above, a slot per vCPU |%n",
                plan.taskManagers(), request.flinkNode().name()));
        row(out, "Kafka partitions", plan.kafkaPartitions(), "");
        out.append(String.format(Locale.ROOT, "| Kafka storage, GiB | %s | | %s h of import, %d copies |%n",
                number(plan.kafkaStorageGiB()), number(request.kafkaRetentionHours()), Planner.KAFKA_REPLICATION));
        out.append(String.format(Locale.ROOT, "%nA full reindex must run at %s docs/s; on these nodes it takes %s h "
                + "(limited by the %s).%n", count(plan.reindexRate()), number(plan.reindexHoursOnPlan()),
                plan.reindexLimit()));
        plan.p95Millis().forEach((scenario, p95) -> out.append(String.format(Locale.ROOT, "%nThe %s p95 at this size, "
                + "as the campaign's fit gives it (at the campaign's rate, on its machine): %s ms.%n", scenario,
                number(p95))));
        out.append("\nAssumptions:\n");
        plan.assumptions().forEach(assumption -> out.append("- ").append(assumption).append('\n'));
        return out.toString();
    }

    private static void row(StringBuilder out, String what, Planner.Sized sized, String nodeType) {
        String needs = sized.needs().entrySet().stream().map(need -> need.getKey() + " " + number(need.getValue()))
                .collect(Collectors.joining("; "));
        out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s |%n", what, sized.count(), nodeType, needs));
    }

    private static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.1f", value);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PlanCommand()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Failures::oneLine).execute(args));
    }
}
