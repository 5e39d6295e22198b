package io.volumizer.benchmarks.pipeline;

import static io.volumizer.benchmarks.pipeline.PipelineTable.*;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import com.mongodb.client.MongoClient;
import io.volumizer.harness.MeasuredJob;
import io.volumizer.harness.Progress;
import io.volumizer.harness.Through;
import io.volumizer.domain.topology.LiveTopology;
import io.volumizer.generators.render.FileText;
import io.volumizer.ops.stores.Stores;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.steps.Step;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;

/**
 * The pipeline benchmark's passes over repositories of the live profile, whose files' text is read and indexed by
 * an index job of its own: beside the import, limited, after it, or at other parallelisms.
 */
final class LivePasses {

    private final PipelineBenchmark bench;

    LivePasses(PipelineBenchmark bench) {
        this.bench = bench;
    }

    /**
     * End to end again into a repository of the live profile: its import and its metadata index next to the metadata
     * profile's of the round, its files' text (counted searchable by {@code fileTextIndexed}) as it follows, read by
     * an index job of its own ({@code --file-text only}, the metadata's {@code none}), and the delay from a
     * document's import to its text being searchable, each percent of them ({@link Progress#delaysSeconds}). With a
     * {@code generateRate} (docs/s, 0: none), only that delay is recorded, of documents generated at that rate. With a
     * {@code textJobLimit} (docs/s, 0: none), the text job obeys that limit on its throttle ({@code file-text}), set
     * for the pass and lifted after it.
     */
    void live(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search,
            int generateRate, int textJobLimit) throws Exception {
        // index prefixes apart: templates of overlapping patterns clash
        String kind = generateRate > 0 ? "steady" : textJobLimit > 0 ? "limited" : "live";
        boolean limited = textJobLimit > 0;
        LiveRepository live = liveRepository(round, kind, n, stores, mongo, search);
        ThrottleSettings throttles = new ThrottleSettings(bench.pipeline.kafka.clientProperties(), bench.pipeline.registry.url,
                bench.pipeline.controlTopic(), bench.pipeline.topicSettings);
        try {
            if (limited) {
                throttles.change(IndexSettings.FileText.THROTTLE_TARGET,
                        new ThrottleSettings.Change.Setting(textJobLimit, false), "pipeline benchmark");
            }
            livePass(live, withText, stores, mongo, generateRate, limited);
        } finally {
            if (limited) {
                throttles.change(IndexSettings.FileText.THROTTLE_TARGET, new ThrottleSettings.Change.Setting(0, false),
                        "pipeline benchmark");
            }
        }
    }

    /** {@link #live}'s jobs on {@code live}, measured as it says, those of a limited text job under their own names. */
    void livePass(LiveRepository live, long withText, Stores stores, MongoClient mongo, int generateRate,
            boolean limited) throws Exception {
        bench.quiet.settle();
        try (MeasuredJob liveImport = live.importJob(stores, limited ? LIMITED_IMPORT : LIVE_IMPORT);
                MeasuredJob liveIndex = live.indexJob(stores, limited ? LIMITED_INDEX : LIVE_INDEX,
                        IndexSettings.FileText.none);
                MeasuredJob liveText = live.indexJob(stores, limited ? LIMITED_TEXT : LIVE_TEXT,
                        IndexSettings.FileText.only)) {
            Through imported = live.imported(liveImport, mongo);
            Through indexed = live.indexed(liveImport, liveIndex, stores);
            Through texts = live.texts(liveText, withText, stores);
            bench.generate(generateRate);
            bench.polling.untilThrough(List.of(imported, indexed, texts), () -> { });
            if (generateRate == 0) {
                bench.record(imported);
                bench.record(indexed);
                bench.record(texts);
            }
            // Percentiles of the delays of each percent of the documents (they need not grow in the import's order).
            List<Double> delays = Progress.delaysSeconds(imported.progress(), texts.progress()).stream().sorted().toList();
            String delay = generateRate > 0 ? STEADY_TEXT_DELAY : limited ? LIMITED_TEXT_DELAY : TEXT_DELAY;
            bench.sample(delay + "50", delays.get(49));
            bench.sample(delay + "95", delays.get(94));
            System.out.printf(Locale.ROOT, "%-45s p50 %.1f s, p95 %.1f s%n", "text searchable after import"
                    + (generateRate > 0 ? " (" + generateRate + " docs/s)" : limited ? " (text limited)" : ""),
                    delays.get(49), delays.get(94));
            for (MeasuredJob job : List.of(liveImport, liveIndex, liveText)) {
                bench.flink.cancel(job.id(), bench.CANCEL_TIMEOUT);
            }
        }
    }

    /**
     * A live repository whose files' text is read only once its import and metadata index are through: the import and
     * that index next to the metadata profile's of the round, the live profile's work on the import's path without
     * the text's beside it (a text job on hosts of its own; this machine has none to give it), then the text job
     * catching up on the imported topic with the machine to itself.
     */
    void textAfterImport(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search)
            throws Exception {
        LiveRepository live = liveRepository(round, "after", n, stores, mongo, search);
        bench.quiet.settle();
        importAndIndexMetadata(live, stores, mongo, true);
        bench.quiet.settle();
        try (MeasuredJob text = live.indexJob(stores, AFTER_TEXT, IndexSettings.FileText.only)) {
            bench.record(bench.polling.untilThrough(live.texts(text, withText, stores)));
            bench.flink.cancel(text.id(), bench.CANCEL_TIMEOUT);
        }
    }

    /**
     * The files' text catching up at each {@code --text-scaling} parallelism, each on a live repository of its own
     * whose import and metadata index ran first (not measured), with the TaskManagers its subtasks ran on.
     */
    void textScaling(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search)
            throws Exception {
        for (int parallelism : bench.textScaling) {
            LiveRepository live = liveRepository(round, "text-" + parallelism, n, stores, mongo, search);
            importAndIndexMetadata(live, stores, mongo, false);
            bench.quiet.settle();
            String what = SCALED_TEXT + parallelism;
            try (MeasuredJob text = live.indexJob(stores, what, IndexSettings.FileText.only, "--parallelism",
                    Integer.toString(parallelism))) {
                bench.record(bench.polling.untilThrough(live.texts(text, withText, stores)));
                // Once every text is through, every task has long been deployed to its TaskManager.
                bench.sample(what + TASK_MANAGERS, bench.flink.taskManagers(text.id()).size());
                bench.flink.cancel(text.id(), bench.CANCEL_TIMEOUT);
            }
        }
    }

    /** A live repository's import and metadata index until every document is through both, recorded or not. */
    void importAndIndexMetadata(LiveRepository live, Stores stores, MongoClient mongo, boolean recorded)
            throws Exception {
        try (MeasuredJob liveImport = live.importJob(stores, AFTER_IMPORT);
                MeasuredJob liveIndex = live.indexJob(stores, AFTER_INDEX, IndexSettings.FileText.none)) {
            Through imported = live.imported(liveImport, mongo);
            Through indexed = live.indexed(liveImport, liveIndex, stores);
            bench.generate(0);
            bench.polling.untilThrough(List.of(imported, indexed), () -> { });
            if (recorded) {
                bench.record(imported);
                bench.record(indexed);
            }
            bench.flink.cancel(liveImport.id(), bench.CANCEL_TIMEOUT);
            bench.flink.cancel(liveIndex.id(), bench.CANCEL_TIMEOUT);
        }
    }

    /** A pass's live repository, on fresh topics, a database and indices of its {@code kind}. */
    private LiveRepository liveRepository(int round, String kind, long n, Stores stores, MongoClient mongo,
            SearchEngine search) throws Exception {
        String tag = round + "-" + bench.runId + "-" + kind;
        stores.reset(bench.repository(), bench.pipeline.documentsTopic(), bench.pipeline.importedTopic());
        bench.dropDatabases(mongo);
        LiveRepository live = new LiveRepository(tag, LiveTopology.file("bench-" + tag, bench.repository()).toString(),
                bench.database("bench_" + kind, round), bench.indices(kind + "-"), n);
        search.indices(live.indices()).deleteAll();
        return live;
    }

    /** A live repository of a pass: its topology file, database and indices, and its jobs' measures. */
    private final class LiveRepository {

        private final String tag;
        private final String topology;
        private final String database;
        private final IndexNames indices;
        private final long documents;

        LiveRepository(String tag, String topology, String database, IndexNames indices, long documents) {
            this.tag = tag;
            this.topology = topology;
            this.database = database;
            this.indices = indices;
            this.documents = documents;
        }

        IndexNames indices() {
            return indices;
        }

        MeasuredJob importJob(Stores stores, String what) throws Exception {
            return bench.submit(stores, what, Step.IMPORT, "--group-id", "bench-live-import-" + tag, "--mongodb-database",
                    database, "--topology", topology);
        }

        /** An index job of the metadata alone ({@code none}) or of the files' text alone ({@code only}). */
        MeasuredJob indexJob(Stores stores, String what, IndexSettings.FileText fileText, String... options)
                throws Exception {
            return bench.submit(stores, what, Step.INDEX, Stream.concat(Stream.of("--index-group-id",
                    "bench-live-index-" + fileText + "-" + tag, "--index-prefix", indices.prefix(), "--topology",
                    topology, "--file-text", fileText.name(), "--mongodb-database", database), Stream.of(options))
                    .toArray(String[]::new));
        }

        Through imported(MeasuredJob importJob, MongoClient mongo) {
            return importJob.through(Progress.startingNow(documents), () -> bench.count(mongo, database));
        }

        Through indexed(MeasuredJob importJob, MeasuredJob indexJob, Stores stores) {
            return indexJob.throughAfter(importJob, Progress.startingNow(documents), () -> bench.esCount(stores, indices));
        }

        Through texts(MeasuredJob textJob, long withText, Stores stores) {
            return Through.stored(textJob.what(), Progress.startingNow(withText), () -> bench.fileTexts(stores, indices));
        }
    }
}
