package io.volumizer.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.options.steps.Step;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code docs/reference/steps.md}: every step of the pipeline ({@link Step}) with its main class, how its jobs are
 * named, what they read in, whether a throttle holds them, and its options, from the step's own options class: what
 * {@code bin/volumizer job submit <step> --help} prints, and what the Web UI's program arguments take.
 */
final class StepsReference {

    private StepsReference() {
    }

    static String page() {
        StringBuilder out = new StringBuilder(ReferenceDocs.header("Steps and their options",
                "Each step is a Flink job of the jobs jar (`jobs/target/volumizer-jobs-*.jar`). Its options are "
                        + "the same wherever they are given: after the step in `bin/volumizer job submit <step>` "
                        + "(or `resume`, `recover`), as program arguments in the Flink Web UI's submit form, and in "
                        + "a step's `args` in the Helm chart. A step's options are checked with its options class "
                        + "before anything is uploaded. Options every step shares are listed once, under "
                        + "[Option groups](#option-groups). How to run them: [jobs](../operations/jobs.md)."));
        List<List<PicocliMarkdown.Command>> trees = new ArrayList<>();
        Map<Step, PicocliMarkdown.Command> commands = new LinkedHashMap<>();
        for (Step step : Step.values()) {
            CommandSpec spec = CommandSpec.forAnnotatedObject(step.newOptions());
            PicocliMarkdown.Command command = new PicocliMarkdown.Command(step.id(), spec,
                    "bin/volumizer job submit " + step.id());
            commands.put(step, command);
            trees.add(List.of(command));
        }
        PicocliMarkdown markdown = new PicocliMarkdown(trees);

        out.append("## Steps\n\n| step | main class | job name | reads in consumer group | obeys a throttle | commands' ids |\n"
                + "|---|---|---|---|---|---|\n");
        for (Step step : Step.values()) {
            out.append("| [").append(step.id()).append("](#").append(Markdown.anchor(step.id())).append(") | ")
                    .append(Markdown.codeCell(step.mainClass())).append(" | ").append(Markdown.codeCell(step.jobName()))
                    .append(" | ").append(consumerGroup(step)).append(" | ")
                    .append(step.throttled() ? "yes: " + Markdown.codeCell("bin/volumizer throttle " + step.id()) : "no")
                    .append(" | ").append(step.commandKind().map(kind -> Markdown.codeCell(kind + "-<repository>-<time>-<random>"))
                            .orElse("")).append(" |\n");
        }
        out.append('\n');
        for (Step step : Step.values()) {
            out.append(markdown.command(commands.get(step), 3, null));
        }
        out.append("## Option groups\n\n");
        Map<String, String> anchors = new LinkedHashMap<>();
        commands.values().forEach(command -> anchors.put(command.heading(), Markdown.anchor(command.heading())));
        out.append(markdown.groups(3, anchors));
        return out.toString().strip() + "\n";
    }

    private static String consumerGroup(Step step) {
        try {
            return Markdown.codeCell(step.consumerGroup(NamesReference.SENTINEL).replace(NamesReference.SENTINEL, "<repository>"));
        } catch (IllegalArgumentException none) {
            return "";
        }
    }
}
