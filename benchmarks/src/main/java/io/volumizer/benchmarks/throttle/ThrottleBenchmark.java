package io.volumizer.benchmarks.throttle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.volumizer.harness.ServiceFaults;
import io.volumizer.ops.results.Report;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.Stores;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.ThrottleSettings.Change;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A running import throttled from outside, as {@code bin/volumizer throttle} does: a generated run in the documents
 * topic, the import-and-index job started at the first limit, then each phase's setting written to the control
 * topic. Every second, the documents MongoDB holds: the trace of one-second rates, and for each limit whether every
 * second after the first two following the change is within 10% of it; paused, whether nothing is written from
 * then on. A TaskManager is killed in the middle of one limited phase; at the end, the stores must hold every document,
 * and nothing be dead-lettered. Writes {@code throttle.json} and {@code throttle.md}.
 */
@Command(name = "throttle-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Throttles a running import from outside through limits, a pause and a TaskManager kill, and "
                + "judges every second against the limit set; writes throttle.json and throttle.md.",
        footer = {"%nExample:", "  bin/volumizer bench throttle"})
public final class ThrottleBenchmark extends PipelineRunCommand {

    /** The second of its phase at which the TaskManager is killed. */
    private static final int KILL_AT = 2;
    /** Seconds from a change after which a second's rate is judged: a change takes effect within 2 s. */
    private static final int TAKES_EFFECT = 2;
    private static final double TOLERANCE = 0.10;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--phases", split = ",", defaultValue = "200,500,1000,pause,resume,300,off", description = "The "
            + "settings in turn, as bin/volumizer throttle takes them (documents a second, off, pause, resume), the last "
            + "until every document is in (default: ${DEFAULT-VALUE}).")
    List<String> phases;

    @Option(names = "--phase-seconds", defaultValue = "12", description = "Seconds each setting but the last holds (default: ${DEFAULT-VALUE}).")
    int phaseSeconds;

    @Option(names = "--kill-taskmanager-in", defaultValue = "2", description = "The phase (1-based) in whose middle "
            + "the TaskManager is killed and started again; 0: none (default: ${DEFAULT-VALUE}).")
    int killIn;

    /**
     * One second of the trace: the setting written last, the seconds since, the documents the throttled source let
     * through (the rate the throttle sets), those MongoDB gained, and the children the import holds for their parent.
     */
    record Second(int phase, String setting, int sinceChange, long passed, long written, long parked,
            boolean taskManagerKilled) {
    }

    /**
     * How a phase went against its limit (0: none; paused: nothing may pass): the median, lowest and highest
     * one-second rates of the source in its judged seconds, whether each was within the tolerance, and MongoDB's
     * median rate meanwhile.
     */
    record Phase(int phase, String setting, double limit, boolean paused, int judged, double medianRate, double lowest,
            double highest, boolean met, double medianWritten) {
    }

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        FlinkSessionClient flink = session.client();
        LocalServices services = LocalServices.ofThisCheckout();
        ThrottleSettings throttles = new ThrottleSettings(pipeline.kafka.clientProperties(), pipeline.registry.url,
                pipeline.controlTopic(), pipeline.topicSettings);
        String target = Step.IMPORT_AND_INDEX.id();
        String repository = settings.repository();
        long total = new BankGenerator(settings).documents().size();
        List<Second> trace = new ArrayList<>();
        List<String> jobs = new ArrayList<>();
        try (Stores stores = new Stores(pipeline)) {
            stores.reset(repository);
            String jarId = flink.uploadJar(session.jar);
            flink.awaitState(flink.run(jarId, Step.GENERATE, generateArguments(), null), "FINISHED", Duration.ofMinutes(10));
            throttles.change(target, Change.parse(phases.get(0)), "throttle benchmark");
            String job = flink.run(jarId, Step.IMPORT_AND_INDEX, Options.with(pipeline, "--group-id",
                    "bench-throttle-" + System.currentTimeMillis()), null);
            jobs.add(job);
            flink.awaitState(job, "RUNNING", Duration.ofMinutes(2));
            long started = System.nanoTime();
            while (stores.mongoEstimatedCount(repository) == 0 && System.nanoTime() - started < Duration.ofMinutes(2).toNanos()) {
                Thread.sleep(100); // the job's tasks deployed and writing: the trace starts with its first documents
            }
            System.out.printf(Locale.ROOT, "importing %,d documents through %s%n", total, phases);
            long before = stores.mongoEstimatedCount(repository);
            long passedBefore = passed(job);
            long next = System.nanoTime();
            long passedAt = next;
            long writtenAt = next;
            for (int phase = 1; phase <= phases.size(); phase++) {
                String setting = phases.get(phase - 1);
                if (phase > 1) {
                    throttles.change(target, Change.parse(setting), "throttle benchmark");
                }
                boolean last = phase == phases.size();
                boolean killPhase = phase == killIn;
                // The phase of the kill lasts until the restarted source lets documents through again, then as long
                // as any other: its next phase starts on a running job.
                Integer recovered = null;
                for (int second = 1; last ? before < total && second <= 600 : killPhase
                        ? recovered == null ? second <= 300 : second <= recovered + phaseSeconds : second <= phaseSeconds;
                        second++) {
                    boolean kill = killPhase && second == KILL_AT;
                    if (kill) {
                        new ServiceFaults(services).kill(ServiceFaults.TASKMANAGER);
                        next = System.nanoTime() - 1_000_000_000L; // this second's sample now: it spans the restart
                    }
                    next += 1_000_000_000L;
                    Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                    // Each rate over the time its two samples really span: a slow read would otherwise move documents
                    // from one second into the next.
                    long passedNow = passed(job);
                    double passedSeconds = (System.nanoTime() - passedAt) / 1e9;
                    passedAt = System.nanoTime();
                    long now = stores.mongoEstimatedCount(repository);
                    double writtenSeconds = (System.nanoTime() - writtenAt) / 1e9;
                    writtenAt = System.nanoTime();
                    // A restarted source counts from 0 again: its first second counts what it passed since.
                    long passedThisSecond = Math.round((passedNow >= passedBefore ? passedNow - passedBefore : passedNow)
                            / passedSeconds);
                    if (killPhase && second > KILL_AT && recovered == null && passedThisSecond > 0) {
                        recovered = second;
                    }
                    trace.add(new Second(phase, setting, second, passedThisSecond, Math.round((now - before) / writtenSeconds),
                            parked(job), kill));
                    System.out.printf(Locale.ROOT, "  %-6s +%2d s  %,6d passed  %,6d written  %,6d parked%s%n", setting,
                            second, passedThisSecond, now - before, trace.get(trace.size() - 1).parked(),
                            kill ? "  (TaskManager killed)" : "");
                    before = now;
                    passedBefore = passedNow;
                }
            }
            long indexed = awaitIndexed(stores, repository, total);
            long deadLetters = stores.committedRecords(pipeline.deadletterTopic());
            write(settings, total, stores.mongoCount(repository), indexed, deadLetters, trace);
        } finally {
            for (var job : flink.jobs()) {
                if (job.path("name").asText().startsWith(Step.IMPORT_AND_INDEX.jobName() + " ")
                        && job.path("state").asText().equals("RUNNING") && jobs.contains(job.path("jid").asText())) {
                    flink.cancel(job.path("jid").asText(), Duration.ofMinutes(2));
                }
            }
            try (Stores stores = new Stores(pipeline)) {
                stores.reset(repository); // the throttles too: they are on the repository's control topic
            }
        }
        return 0;
    }

    /** What the job's throttled sources let through so far, from the local TaskManagers' metrics. */
    private long passed(String job) throws InterruptedException {
        return Math.round(PrometheusScrape.of(PrometheusScrape.LOCAL_FLINK).sum(MetricNames.prometheusName(MetricNames.THROTTLE_PASSED),
                Map.of("job_id", job)));
    }

    private long parked(String job) throws InterruptedException {
        return Math.round(PrometheusScrape.of(PrometheusScrape.LOCAL_FLINK).sum(MetricNames.prometheusName(MetricNames.PARKED_CHILDREN),
                Map.of("job_id", job)));
    }

    private static long awaitIndexed(Stores stores, String repository, long total) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        long indexed = stores.elasticsearchCount(repository);
        while (indexed < total && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            indexed = stores.elasticsearchCount(repository);
        }
        return indexed;
    }

    /**
     * Each phase judged on the source's one-second rates from {@link #TAKES_EFFECT} seconds after its change on: a
     * limit's within the tolerance, a pause's 0 (the phase in which the TaskManager is killed is shown, not judged;
     * the last, without a limit, is not judged).
     */
    private List<Phase> phases(List<Second> trace) {
        List<Phase> judged = new ArrayList<>();
        double limit = 0;
        boolean paused = false;
        for (int phase = 1; phase <= phases.size(); phase++) {
            String setting = phases.get(phase - 1);
            Change change = Change.parse(setting);
            if (change instanceof Change.Limit l) {
                limit = l.docsPerSecond();
            } else if (change instanceof Change.Paused p) {
                paused = p.paused();
            }
            int number = phase;
            List<Second> seconds = trace.stream().filter(s -> s.phase() == number && s.sinceChange() > TAKES_EFFECT).toList();
            if (seconds.isEmpty() || !paused && limit <= 0) {
                continue;
            }
            List<Long> rates = seconds.stream().map(Second::passed).sorted().toList();
            List<Long> written = seconds.stream().map(Second::written).sorted().toList();
            double target = limit;
            boolean met = paused ? rates.stream().allMatch(rate -> rate == 0)
                    : phase == killIn || rates.stream().allMatch(rate -> Math.abs(rate - target) <= TOLERANCE * target);
            judged.add(new Phase(phase, setting, limit, paused, rates.size(), rates.get(rates.size() / 2), rates.get(0),
                    rates.get(rates.size() - 1), met, written.get(written.size() / 2)));
        }
        return judged;
    }

    private void write(GeneratorSettings settings, long total, long stored, long indexed, long deadLetters,
            List<Second> trace) throws Exception {
        List<Phase> judged = phases(trace);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("date", Report.date());
        figures.put("documents", total);
        figures.put("inMongoDb", stored);
        figures.put("inElasticsearch", indexed);
        figures.put("deadLettered", deadLetters);
        figures.put("phases", judged);
        figures.put("trace", trace);
        StringBuilder md = new StringBuilder("# Throttle: an import's limit changed while it runs\n\n");
        md.append(String.format(Locale.ROOT, "Measured %s on %d cores, every service on this machine: %,d documents "
                + "(%d customers) in the documents topic, the import-and-index job (parallelism %d) started at the first "
                + "limit, then each setting written to the control topic (`bin/volumizer throttle import-and-index "
                + "<setting>`) every %d s. Every second, the documents the throttled source let through (its "
                + "`throttlePassed`, from the TaskManagers' metrics), those MongoDB gained, and the children the import "
                + "holds for a parent not imported yet. A limit is met when the source's rate in every second after the "
                + "first %d following the change is within %.0f%% of it (a limit is a ceiling: a second below it, where the "
                + "pipeline did not keep up, fails it too; the phase in which the TaskManager is killed, which lasts until "
                + "the source passes documents again, is shown, not judged); a pause, when the source lets nothing through from then on. MongoDB's rate follows "
                + "the source's with the import's wait for parents: see the trace.%n%n",
                figures.get("date"), Runtime.getRuntime().availableProcessors(), total, settings.customers(),
                pipeline.parallelism, phaseSeconds, TAKES_EFFECT, TOLERANCE * 100));
        md.append("| phase | setting | in force | seconds judged | source, median docs/s | lowest | highest | met | "
                + "MongoDB, median docs/s |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Phase phase : judged) {
            md.append(String.format(Locale.ROOT, "| %d | %s%s | %s | %d | %,.0f | %,.0f | %,.0f | %s | %,.0f |%n",
                    phase.phase(), phase.setting(), phase.phase() == killIn ? " (TaskManager killed)" : "",
                    phase.paused() ? "paused" : String.format(Locale.ROOT, "%,.0f docs/s", phase.limit()), phase.judged(),
                    phase.medianRate(), phase.lowest(), phase.highest(), phase.met() ? "yes" : "**NO**",
                    phase.medianWritten()));
        }
        md.append(String.format(Locale.ROOT, "%nAt the end: %,d of %,d documents in MongoDB, %,d in Elasticsearch, %,d "
                + "dead-lettered: %s.%n%n## Trace (each second)%n%n| phase | setting | second | source passed | MongoDB "
                + "gained | children parked |%n|---|---|---|---|---|---|%n", stored, total, indexed, deadLetters,
                stored == total && indexed == total && deadLetters == 0 ? "reconciled" : "**NOT reconciled**"));
        for (Second second : trace) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %,d | %,d | %,d%s |%n", second.phase(), second.setting(),
                    second.sinceChange(), second.passed(), second.written(), second.parked(),
                    second.taskManagerKilled() ? " (TaskManager killed)" : ""));
        }
        Report.write(results.folder, "throttle", figures, md);
        System.out.println(md);
    }
}
