package io.volumizer.ops.throttle;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.ops.flink.FlinkSessionClient;
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
        + "(import, index, import-and-index, generate, reindex) or a command's while they run; lists the throttles "
        + "and the running jobs' rates without arguments.")
public final class ThrottleCommand implements Callable<Integer> {

    @Mixin KafkaOptions kafka = new KafkaOptions();
    @Mixin RegistryOptions registry = new RegistryOptions();
    @Mixin DocumentsTopicOptions documents = new DocumentsTopicOptions();
    @Mixin TopicSettings topics = new TopicSettings();
    @Mixin FlinkOptions flink = new FlinkOptions();

    @Parameters(index = "0", arity = "0..1", paramLabel = "TARGET", description = "A step's id (generate, import, "
            + "index, import-and-index, reindex) or a reindex command's id.")
    String target;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SETTING", description = "Documents a second (shared by the "
            + "job's subtasks), off (no limit), pause, or resume (at the limit set).")
    String setting;

    @Override
    public Integer call() throws Exception {
        if ((target == null) != (setting == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "name a target and its setting, or neither");
        }
        ThrottleSettings settings = new ThrottleSettings(kafka.clientProperties(), registry.url,
                documents.topics().control(), topics);
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
            System.out.println(target + ": " + describe(changed) + " (" + documents.topics().control() + ")");
            return 0;
        }
        Map<String, ThrottleSetting> all = settings.read();
        System.out.println(all.isEmpty() ? "no throttle on " + documents.topics().control()
                : "throttles on " + documents.topics().control() + ":");
        all.values().forEach(each -> System.out.println("  " + each.getTarget() + ": " + describe(each)
                + ", changed " + each.getChanged() + (each.getChangedBy() == null ? "" : " by " + each.getChangedBy())));
        running(all);
        return 0;
    }

    /** Each running job of a throttled step: what it obeys and the rate its source achieves. */
    private void running(Map<String, ThrottleSetting> all) {
        FlinkSessionClient client = new FlinkSessionClient(flink.rest);
        try {
            for (JsonNode job : client.jobs()) {
                Optional<Step> step = Arrays.stream(Step.values())
                        .filter(each -> job.path("name").asText().startsWith(each.jobName() + " ")).findFirst();
                if (step.isEmpty() || !job.path("state").asText().equals("RUNNING")) {
                    continue;
                }
                String id = job.path("jid").asText();
                ThrottleSetting obeyed = all.get(step.get().id());
                System.out.printf(Locale.ROOT, "  job %s (%s): %s, %,d docs/s now%n", id, job.path("name").asText(),
                        obeyed == null ? "no limit" : describe(obeyed), client.metricSum(id, "", MetricNames.THROTTLE_ACHIEVED));
            }
        } catch (java.io.IOException e) {
            System.out.println("  (running jobs unknown: " + e.getMessage() + ")");
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
