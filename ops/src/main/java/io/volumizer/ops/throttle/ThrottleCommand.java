package io.volumizer.ops.throttle;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.hold.AimdController;
import io.volumizer.ops.throttle.hold.HoldLoop;
import io.volumizer.ops.throttle.hold.HoldMetrics;
import io.volumizer.ops.throttle.hold.HoldOptions;
import io.volumizer.options.Failures;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.endpoints.FlinkOptions;
import io.volumizer.options.endpoints.KafkaOptions;
import io.volumizer.options.endpoints.RegistryOptions;
import io.volumizer.options.pipeline.DocumentsTopicOptions;
import io.volumizer.options.pipeline.TopicSettings;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.ThrottleSetting;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/volumizer throttle [<target> <docs/s | off | pause | resume>]}: changes how fast a step's jobs (or one
 * command's) write while they run, on the repository's control topic; without arguments, lists the settings and
 * the rate each running job achieves.
 */
@Command(name = "throttle", mixinStandardHelpOptions = true, description = "Limits, pauses or resumes a step's jobs "
        + "(import, index, import-and-index, generate, reindex, set-acl, import-csv), the files' text's index jobs "
        + "(file-text) or a command's while they run; with --hold-p95, keeps "
        + "setting a step's limit so that the users' p95 stays under a target; lists the throttles and the running "
        + "jobs' rates without arguments.",
        footer = {"%nExample:", "  bin/volumizer throttle import 500"})
public final class ThrottleCommand implements Callable<Integer> {

    @Mixin KafkaOptions kafka = new KafkaOptions();
    @Mixin RegistryOptions registry = new RegistryOptions();
    @Mixin DocumentsTopicOptions documents = new DocumentsTopicOptions();
    @Mixin TopicSettings topics = new TopicSettings();
    @Mixin FlinkOptions flink = new FlinkOptions();
    @Mixin HoldOptions hold = new HoldOptions();

    @CommandLine.Option(names = "--control-topic", description = "The control topic whose settings these are (default: "
            + "--topics-of's, volumizer.<repository>.control; a job submitted without --topics-of follows "
            + "volumizer.control).")
    String controlTopic;

    private String control() {
        return controlTopic != null ? controlTopic : documents.topics().control();
    }

    @Parameters(index = "0", arity = "0..1", paramLabel = "TARGET", description = "A step's id (generate, import, "
            + "index, import-and-index, reindex, set-acl, import-csv), file-text (the index jobs of the files' text alone, "
            + "--file-text only; a limit or pause of index holds them too) or a reindex or setAcl command's id.")
    String target;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SETTING", description = "Documents a second (shared by the "
            + "job's subtasks), off (no limit), pause, or resume (at the limit set).")
    String setting;

    @Override
    public Integer call() throws Exception {
        ThrottleSettings settings = new ThrottleSettings(kafka.clientProperties(), registry.url,
                control(), topics);
        if (hold.target != null) {
            return hold(settings);
        }
        if ((target == null) != (setting == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "name a target and its setting, or neither");
        }
        if (target != null) {
            ThrottleSettings.Change change;
            try {
                change = ThrottleSettings.Change.parse(setting);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
            }
            if (!ThrottleSettings.isTarget(target)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "no job obeys a throttle of '" + target
                        + "'; targets: " + ThrottleSettings.targets());
            }
            ThrottleSetting changed = settings.change(target, change, System.getProperty("user.name"));
            System.out.println(target + ": " + describe(changed) + " (" + control() + ")");
            if (changed.getDocsPerSecond() > 0 || changed.getPaused()) {
                warnIfNoneObeys(target);
            }
            return 0;
        }
        Map<String, ThrottleSetting> all = settings.read();
        System.out.println(all.isEmpty() ? "no throttle on " + control()
                : "throttles on " + control() + ":");
        all.values().forEach(each -> System.out.println("  " + each.getTarget() + ": " + describe(each)
                + ", changed " + each.getChanged() + (each.getChangedBy() == null ? "" : " by " + each.getChangedBy())));
        listRunning(all);
        return 0;
    }

    /**
     * A setting is accepted before any job follows it (a job submitted later obeys it), but says so when no running
     * job would: naming the jobs of that target that follow another control topic, and how to reach theirs.
     */
    private void warnIfNoneObeys(String target) {
        try {
            List<RunningJob> jobs = RunningJob.all(new FlinkSessionClient(flink.rest));
            String control = control();
            if (jobs.stream().anyMatch(job -> job.control().equals(control) && job.targets().contains(target))) {
                return;
            }
            List<RunningJob> elsewhere = jobs.stream().filter(job -> job.targets().contains(target)).toList();
            System.out.println("warning: no running job follows " + control + " for " + target + (elsewhere.isEmpty()
                    ? "; a job submitted with its topics obeys it" : elsewhere.stream().map(job -> "; job " + job.id()
                    + " (" + job.name() + ") follows " + job.control() + " (bin/volumizer throttle --control-topic "
                    + job.control() + " " + target + " ...)").collect(Collectors.joining())));
        } catch (java.io.IOException | IllegalStateException e) {
            System.out.println("warning: which running jobs follow the setting is unknown: " + e.getMessage());
        }
    }

    /** Holds the users' p95 under the target by the step's limit, until Ctrl-C. */
    private int hold(ThrottleSettings settings) throws Exception {
        if (target == null || setting != null || !ThrottleSettings.isStep(target)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--hold-p95 holds one step: "
                    + "throttle <step> --hold-p95 LATENCY, a step among " + ThrottleSettings.steps());
        }
        AimdController controller;
        try {
            controller = hold.controller(hold.target);
            controller.firstLimit(hold.start);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        String by = System.getProperty("user.name") + " (hold)";
        try (HoldMetrics metrics = new HoldMetrics(controller.targetSeconds()).serve(hold.metricsPort)) {
            FlinkSessionClient flinkJobs = new FlinkSessionClient(flink.rest);
            Step step = Step.named(target);
            HoldLoop loop = new HoldLoop(() -> PrometheusScrape.of(hold.apiMetrics).samples(),
                    () -> PrometheusScrape.of(hold.flinkMetrics).samples(), () -> running(flinkJobs, step), hold.route,
                    controller, limit -> settings.change(target, new ThrottleSettings.Change.Limit(limit), by), metrics,
                    System.out, System::nanoTime);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.printf(Locale.ROOT,
                    "hold ended: %s stays at %.0f docs/s (bin/volumizer throttle %s off lifts it)%n", target, loop.limit(), target)));
            loop.start(hold.start);
            loop.run(hold.interval);
        }
        return 0;
    }

    /** The ids of the step's running jobs. */
    static Set<String> running(FlinkSessionClient client, Step step) throws java.io.IOException {
        return client.jobs().stream().filter(job -> job.path("state").asText().equals("RUNNING")
                        && job.path("name").asText().startsWith(step.jobName() + " "))
                .map(job -> job.path("jid").asText()).collect(Collectors.toSet());
    }

    /**
     * Each running job of a throttled step: the control topic it follows; for one that follows this topic, the
     * settings it obeys (its own first); for every one, the limit and the rate its own metrics report.
     */
    private void listRunning(Map<String, ThrottleSetting> all) {
        FlinkSessionClient client = new FlinkSessionClient(flink.rest);
        String control = control();
        try {
            for (RunningJob job : RunningJob.all(client)) {
                String obeyed = job.control().equals(control) ? job.targets().stream().map(target -> target + " "
                        + (all.containsKey(target) ? describe(all.get(target)) : "no limit"))
                        .collect(Collectors.joining(", ")) : "follows " + job.control() + ", not this topic";
                double limit = client.metricMax(job.id(), "", MetricNames.THROTTLE_LIMIT);
                System.out.printf(Locale.ROOT, "  job %s (%s): %s; its limit now %s, %,d docs/s now%n", job.id(), job.name(),
                        obeyed, limit > 0 ? String.format(Locale.ROOT, "%,.0f docs/s", limit) : "none",
                        client.metricSum(job.id(), "", MetricNames.THROTTLE_ACHIEVED));
            }
        } catch (java.io.IOException | IllegalStateException e) {
            System.out.println("  (running jobs unknown: " + e.getMessage() + ")");
        }
    }

    /**
     * A running job of a throttled step, with the control topic and the targets its recorded arguments give it: its
     * step's default topic and target when it recorded none (a job submitted otherwise).
     */
    record RunningJob(String id, String name, String control, List<String> targets) {

        static List<RunningJob> all(FlinkSessionClient client) throws java.io.IOException {
            List<RunningJob> jobs = new java.util.ArrayList<>();
            for (JsonNode job : client.jobs()) {
                Optional<Step> step = Arrays.stream(Step.values())
                        .filter(each -> job.path("name").asText().startsWith(each.jobName() + " ")).findFirst();
                if (step.isEmpty() || !step.get().throttled() || !job.path("state").asText().equals("RUNNING")) {
                    continue;
                }
                String id = job.path("jid").asText();
                List<String> arguments = FlinkSessionClient.runArguments(client.config(id)).orElse(List.of());
                try {
                    jobs.add(new RunningJob(id, job.path("name").asText(),
                            ThrottleSettings.controlTopicOf(step.get(), arguments).orElseThrow(),
                            arguments.isEmpty() ? List.of(step.get().id()) : ThrottleSettings.targetsOf(step.get(), arguments)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("job " + id + "'s options cannot be read here (" + e.getMessage() + ")", e);
                }
            }
            return jobs;
        }
    }

    static String describe(ThrottleSetting setting) {
        String limit = setting.getDocsPerSecond() > 0
                ? String.format(Locale.ROOT, "%,.0f docs/s", setting.getDocsPerSecond()) : "no limit";
        return setting.getPaused() ? "paused (" + limit + " once resumed)" : limit;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThrottleCommand()).setOverwrittenOptionsAllowed(true).setExecutionExceptionHandler(Failures::oneLine).execute(args));
    }
}
