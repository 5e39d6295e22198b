package io.volumizer.benchmarks.calibration;

import static io.volumizer.harness.Stats.median;
import static io.volumizer.harness.Stats.ratioWithRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.volumizer.benchmarks.calibration.CalibrationBenchmark.StageCost;
import io.volumizer.harness.StoreIsolation;
import io.volumizer.ops.plan.Calibration;

/** The calibration's table: bytes and CPU a document costs, per type and stage, and the linearity of the stages. */
final class CalibrationTable {

    private CalibrationTable() {
    }

    static String markdown(CalibrationBenchmark bench, Calibration calibration, long documents) {
        List<String> lines = new ArrayList<>(List.of("# Calibration: what a document costs", "",
                "Measured " + calibration.machine().measured() + " on " + calibration.machine().cores() + " cores ("
                        + calibration.machine().description() + "), " + calibration.machine().searchEngine() + "; "
                        + String.format(Locale.ROOT, "%,d", documents) + " documents (" + bench.settings.customers()
                        + " customers), job parallelism " + bench.pipeline.parallelism + ". The planner "
                        + "(`bin/volumizer plan --calibration benchmarks/results/calibration.json`) multiplies these.",
                "",
                "**Bytes per document.** MongoDB: the stored BSON (uncompressed; WiredTiger compresses it on disk) and "
                        + "its index entries counted from the collection's index definitions (key bytes and a record "
                        + "id, without WiredTiger's prefix compression: the stand-in reports no index sizes). Search "
                        + "engine: up to " + bench.sample + " documents of the type written alone with the index stage's "
                        + "writer into a one-shard index of each profile (live: with their file's text; archive: "
                        + "best_compression), merged into one segment, less an empty index's bytes (a type of a few "
                        + "documents, the root, still carries a segment's own bytes; its share of a repository is "
                        + "nil). File: the rendered bytes.", "",
                "| type | MongoDB data | MongoDB indexes | search, metadata | search, live | search, archive | file |",
                "|---|---|---|---|---|---|---|"));
        calibration.types().forEach((type, costs) -> lines.add(String.format(Locale.ROOT,
                "| %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f |", type, costs.mongoDataBytes(),
                costs.mongoIndexBytes(), costs.searchBytes().get("metadata"), costs.searchBytes().get("live"),
                costs.searchBytes().get("archive"), costs.blobBytes())));
        lines.addAll(List.of("", "**CPU per document (µs)**, the median of " + bench.rounds + " rounds, each stage run alone "
                + "once the machine was quiet: the CPU "
                + "time of each service's processes from the first reading at " + (int) (CalibrationBenchmark.WINDOW_FROM * 100) + "% of "
                + "the documents to the first at " + (int) (CalibrationBenchmark.WINDOW_TO * 100) + "% (past the job's start, before its "
                + "tail), less their idle rate over the " + CalibrationBenchmark.IDLE.toSeconds() + " s before, divided by the documents "
                + "in between. The live profile's index job and reindex read each file's text; they render "
                + "the generated file again where a repository of uploads would read it from its blob store.", "",
                "| stage | Flink | MongoDB | search engine | Kafka and registry |", "|---|---|---|---|---|"));
        calibration.cpu().forEach((stage, groups) -> lines.add(String.format(Locale.ROOT,
                "| %s | %.1f | %.1f | %.1f | %.1f |", stage, groups.get(Calibration.FLINK) * 1e6,
                groups.get(Calibration.MONGODB) * 1e6, groups.get(Calibration.SEARCH) * 1e6,
                groups.get(Calibration.KAFKA) * 1e6)));
        lines.addAll(List.of("", "**Kafka**, bytes an event takes in the topic's log (one copy, batches, headers and "
                + "transaction markers included):", ""));
        calibration.kafkaBytesPerEvent().forEach((topic, bytes) -> lines.add(String.format(Locale.ROOT,
                "- %s: %,.0f", topic, bytes)));
        lines.add("");
        if (!bench.linearities.isEmpty()) {
            lines.addAll(linearityLines(bench.linearities));
        }
        return String.join("\n", lines);
    }

    /** Each stage at parallelism 2 against the same stage at 1, measured in the same run. */
    private static List<String> linearityLines(Map<String, List<StageCost>> linearities) {
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> lines = new ArrayList<>(List.of("## Linearity", "",
                "The planner multiplies a document's cost by the rate asked: that holds if a document costs the same "
                        + "when a stage runs on more slots. Each stage ran at parallelism 1, then 2, with its store on "
                        + "core(s) " + StoreIsolation.storeCores(cores) + " and every other service and this runner "
                        + "on " + StoreIsolation.otherCores(cores) + " (taskset), in each round; CPU read as above. Medians of "
                        + "the rounds; a ratio is the median of the rounds' ratios, with their range.", "",
                "| stage | docs/s at 1 | docs/s at 2 | ratio (range) | CPU µs a document at 1 → 2 (ratio, range) |",
                "|---|---|---|---|---|"));
        for (String stage : List.of("import", "index.metadata")) {
            List<StageCost> one = linearities.get(stage + ", parallelism 1");
            List<StageCost> two = linearities.get(stage + ", parallelism 2");
            StringBuilder cpu = new StringBuilder();
            for (String group : one.get(0).perDocument().keySet()) {
                double atOne = median(one.stream().map(cost -> cost.perDocument().get(group)).toList());
                if (atOne * 1e6 >= 1) {
                    cpu.append(cpu.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT, "%s %.1f → %.1f (%s)",
                            group, atOne * 1e6, median(two.stream().map(cost -> cost.perDocument().get(group))
                                    .toList()) * 1e6,
                            ratioWithRange(CalibrationBenchmark.ratios(one, two, cost -> cost.perDocument().get(group)))));
                }
            }
            lines.add(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %s | %s |", stage,
                    median(one.stream().map(StageCost::rate).toList()), median(two.stream().map(StageCost::rate).toList()),
                    ratioWithRange(CalibrationBenchmark.ratios(one, two, StageCost::rate)), cpu));
        }
        lines.addAll(List.of("", "What two cores cannot show: a rate that grows with slots beyond one core for the "
                + "job and one for its store; the network between hosts; a MongoDB replica set's or a search "
                + "engine's replicas' copies; shards spread over nodes. The planner takes those as linear.", ""));
        return lines;
    }
}
