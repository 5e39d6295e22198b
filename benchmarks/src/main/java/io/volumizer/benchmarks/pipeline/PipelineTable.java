package io.volumizer.benchmarks.pipeline;

import static io.volumizer.harness.Samples.SUSTAINED;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.volumizer.ops.results.Report;
import io.volumizer.harness.StoreIsolation;
import io.volumizer.generators.GeneratorSettings;

/** The pipeline benchmark's measures by name (the keys of its samples in pipeline.json), and its table. */
final class PipelineTable {

    static final String GENERATE_JOB = "generate job (into Kafka)";
    static final String RAW_MONGODB = "raw MongoDB bulk upsert loop (baseline)";
    static final String IMPORT_BY_PARENT = "import job, keyed by parent";
    static final String IMPORT_SPREAD = "import job, spread by document";
    static final String RAW_MONGODB_ISOLATED = "raw MongoDB bulk upsert loop (baseline), store on its own cores";
    static final String IMPORT_ISOLATED = "import job, keyed by parent, store on its own cores";
    static final String HIT_RATIO = "parent cache hit ratio, keyed by parent";
    static final String HIT_RATIO_BOUND = "parent cache hit ratio, bound of this data";
    static final String HIT_RATIO_WITH_RETRIES = "parent cache hit ratio, lookups again counted as misses";
    static final String RAW_BULK = "raw Elasticsearch _bulk loop (baseline)";
    static final String INDEX_JOB = "index job";
    static final String END_TO_END = "end to end generate -> import -> index";
    static final String END_TO_END_IMPORT = "end to end, its import stage";
    static final String END_TO_END_INDEX = "end to end, its index stage";
    static final String LIVE_IMPORT = "live end to end, its import stage";
    static final String LIVE_INDEX = "live end to end, its metadata index stage";
    static final String LIVE_TEXT = "live end to end, its files' text";
    static final String TEXT_DELAY = "live end to end, seconds from import to text searchable, p";
    static final String STEADY_TEXT_DELAY = "live end to end, steady import, seconds from import to text searchable, p";
    static final String LIMITED_IMPORT = "live, text job limited, its import stage";
    static final String LIMITED_INDEX = "live, text job limited, its metadata index stage";
    static final String LIMITED_TEXT = "live, text job limited, its files' text";
    static final String LIMITED_TEXT_DELAY = "live, text job limited, seconds from import to text searchable, p";
    static final String AFTER_IMPORT = "live, text after the import, its import stage";
    static final String AFTER_INDEX = "live, text after the import, its metadata index stage";
    static final String AFTER_TEXT = "live, text after the import, its files' text catching up";

    static final String SCALED_TEXT = "live, files' text catching up at parallelism ";
    static final String TASK_MANAGERS = ", TaskManagers";

    private PipelineTable() {
    }

    static String markdown(PipelineBenchmark bench, GeneratorSettings settings, Map<String, Object> figures) {
        double hitRatio = bench.samples.median(HIT_RATIO);
        String table = String.join("\n",
                "# Pipeline benchmarks", "",
                "Measured " + figures.get("date") + " on " + figures.get("machine") + "; " + figures.get("documents")
                        + " documents per run (" + settings.customers() + " customers, " + settings.statementsPerAccount()
                        + " statements per account), job parallelism "
                        + bench.pipeline.parallelism + ".",
                "Each figure is the median of " + bench.rounds + " rounds; each ratio is the median of the rounds' ratios "
                        + "(job and baseline measured one after the other in the same round: the baseline first in odd "
                        + "rounds, the job first in even ones), with its range. Every measure "
                        + "starts once the machine is quiet (at most 15% busy over a second), not in the merges and "
                        + "flushes of the one before.",
                "*Sustained* is the rate between 50% and 90% of the documents, past a job's warm-up: the one a run of billions would see; "
                        + "*whole run* also counts a job's start (new classes, empty caches) and its tail. "
                        + "Targets are judged on the sustained rate. End to end, the sustained rate is the slower of its "
                        + "import and index stages' in that run: the index stage reads what the import committed at "
                        + "its last checkpoint, so it follows in bursts and catches up at full speed at the end.",
                "A job's documents through are those its store holds and those it dead-lettered (counted on a "
                        + "dead-letter topic of the measure's own); each job's row says how many it dead-lettered "
                        + "(median of the rounds, with their range where they differ): a rate with dead letters is not "
                        + "that of a run that stored every document.",
                "The import and its loop are measured twice: with every service on the same cores, where whatever "
                        + "CPU the job spends (Kafka in and out, decoding, the shuffle, checkpoints) is taken from the "
                        + "store it writes to, and with MongoDB on cores of its own (taskset; every other service and "
                        + "the runner on the rest), as a store runs on hosts of its own.", "",
                "| measure | docs/s sustained (whole run) | baseline, docs/s sustained (whole run) | ratio sustained (range) | ratio whole run (range) | target | met |",
                "|---|---|---|---|---|---|---|",
                bench.samples.row("import job, every service on the same cores", IMPORT_BY_PARENT, "raw bulk-upsert loop", RAW_MONGODB, 0.9),
                bench.storeIsolation.enabled() ? bench.samples.row("import job, MongoDB on cores of its own (cores " + StoreIsolation.storeCores(Report.cores())
                        + ", the rest on " + StoreIsolation.otherCores(Report.cores()) + ")", IMPORT_ISOLATED, "raw bulk-upsert loop, same", RAW_MONGODB_ISOLATED, 0.9)
                        : "| import job, MongoDB on cores of its own | not measured (no --store-service) | | | | ≥ 0.9× | |",
                bench.samples.row("import keyed by parent", IMPORT_BY_PARENT, "spread by document", IMPORT_SPREAD, 1.8),
                String.format(Locale.ROOT, "| parent cache hit ratio | %.2f%% | %.2f%% on this data if every parent were read once from MongoDB | | | ≥ 99%% | %s |",
                        hitRatio * 100, (Double) figures.get(HIT_RATIO_BOUND) * 100, hitRatio >= 0.99 ? "yes" : "NO"),
                String.format(Locale.ROOT, "| — with each lookup again of a parent not written yet counted as a miss "
                        + "(the definition until 2026-11-24) | %.2f%% | | | | | |",
                        bench.samples.median(HIT_RATIO_WITH_RETRIES) * 100),
                bench.samples.row("index job", INDEX_JOB, "raw _bulk loop", RAW_BULK, 0.9),
                String.format(Locale.ROOT, "| end to end, generate → import → index | %s | | | | ≥ 3,000 docs/s | %s |",
                        bench.samples.rates(END_TO_END), bench.samples.median(END_TO_END + SUSTAINED) >= 3000 ? "yes" : "NO"),
                String.format(Locale.ROOT, "| — its import stage | %s | | | | | |", bench.samples.rates(END_TO_END_IMPORT)),
                String.format(Locale.ROOT, "| — its index stage | %s | | | | | |", bench.samples.rates(END_TO_END_INDEX)),
                bench.samples.row("live profile end to end: its import stage", LIVE_IMPORT, "metadata profile's, same round",
                        END_TO_END_IMPORT, 0.9),
                bench.samples.row("— its metadata index stage", LIVE_INDEX, "metadata profile's, same round", END_TO_END_INDEX, 0.9),
                String.format(Locale.ROOT, "| — its files' text (%,d of the documents: statements' PDF, letters' DOCX) "
                        + "| %s | | | | | |", (Long) figures.get("documents with a file's text"), bench.samples.rates(LIVE_TEXT)),
                String.format(Locale.ROOT, "| — files' text read and indexed per core of this machine (%d cores, "
                        + "every service on them) | %,.0f (%,.0f) | | | | | |", Report.cores(),
                        bench.samples.median(LIVE_TEXT + SUSTAINED) / Report.cores(), bench.samples.median(LIVE_TEXT) / Report.cores()),
                String.format(Locale.ROOT, "| — from a document's import to its text searchable, p50 / p95 | %.1f s / %.1f s "
                        + "| | | | | |", bench.samples.median(TEXT_DELAY + "50"), bench.samples.median(TEXT_DELAY + "95")),
                bench.steadyImportRate <= 0 ? "| — the same under a steady import | not measured (no --steady-import-rate) | | | | | |"
                        : String.format(Locale.ROOT, "| — the same, the documents generated at %,d a second | %.1f s / %.1f s "
                        + "| | | | | |", bench.steadyImportRate, bench.samples.median(STEADY_TEXT_DELAY + "50"),
                        bench.samples.median(STEADY_TEXT_DELAY + "95")),
                bench.textLimit > 0 ? String.join("\n",
                        bench.samples.row("live profile, its text job limited to " + String.format(Locale.ROOT, "%,d", bench.textLimit)
                                + " docs/s beside the import (bin/volumizer throttle file-text): its import stage",
                                LIMITED_IMPORT, "metadata profile's, same round", END_TO_END_IMPORT, 0.9),
                        bench.samples.row("— its metadata index stage", LIMITED_INDEX, "metadata profile's, same round",
                                END_TO_END_INDEX, 0.9),
                        String.format(Locale.ROOT, "| — its files' text | %s | | | | | |", bench.samples.rates(LIMITED_TEXT)),
                        String.format(Locale.ROOT, "| — from a document's import to its text searchable, p50 / p95 "
                                + "| %.1f s / %.1f s | | | | | |", bench.samples.median(LIMITED_TEXT_DELAY + "50"),
                                bench.samples.median(LIMITED_TEXT_DELAY + "95")))
                        : "| live profile, its text job limited | not measured (no --text-limit) | | | | | |",
                bench.textAfterImport ? String.join("\n",
                        bench.samples.row("live profile, its text after the import (as a text job on hosts of its own would leave the "
                                + "import's cores): its import stage", AFTER_IMPORT, "metadata profile's, same round",
                                END_TO_END_IMPORT, 0.9),
                        bench.samples.row("— its metadata index stage", AFTER_INDEX, "metadata profile's, same round",
                                END_TO_END_INDEX, 0.9),
                        String.format(Locale.ROOT, "| — then its files' text catching up, the machine to itself | %s "
                                + "(%,.0f a core sustained) | | | | | |", bench.samples.rates(AFTER_TEXT),
                                bench.samples.median(AFTER_TEXT + SUSTAINED) / Report.cores()))
                        : "| live profile, its text after the import | not measured (no --text-after-import) | | | | | |",
                bench.textScaling.isEmpty() ? "| live profile, its text at other parallelisms | not measured (no --text-scaling) | | | | | |"
                        : bench.textScaling.stream().map(parallelism -> bench.samples.row("live profile, its files' text catching up at "
                                + "parallelism " + parallelism + " (on " + Math.round(bench.samples.median(SCALED_TEXT
                                + parallelism + TASK_MANAGERS)) + " TaskManagers)", SCALED_TEXT + parallelism,
                                "at parallelism " + bench.textScaling.get(0), SCALED_TEXT + bench.textScaling.get(0), null))
                                .collect(Collectors.joining("\n")),
                String.format(Locale.ROOT, "| generate job (into Kafka), whole run | %,.0f | | | | | |",
                        bench.samples.median(GENERATE_JOB)), "");
        return table;
    }
}
