package io.volumizer.options.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import io.volumizer.domain.topology.Topology;
import io.volumizer.options.Failures;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.options.topology.TopologyOptions;
import io.volumizer.stores.search.IndexNames;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/volumizer conventions}: the names Volumizer derives, as the Java rules make them (this prints them, it
 * has no rule of its own), for people and for scripts (kafka-topics, Grafana, Elasticsearch queries).
 */
@Command(name = "conventions", mixinStandardHelpOptions = true, sortOptions = false, description = "Prints the names "
        + "Volumizer derives: a repository's topics and consumer groups, index, template and database names, metric names.",
        footer = {"%nExample:", "  bin/volumizer conventions --topology topologies/11b.yaml --format yaml"})
public final class ConventionsCommand implements Callable<Integer> {

    /** How the names are printed. */
    public enum Format { shell, yaml }

    @Option(names = "--repository", description = "The repository whose topics and consumer groups these are "
            + "(default: none, the names without a repository).")
    String repository;

    /** With a topology, the index alias of each of its repositories. */
    @Mixin TopologyOptions topology = new TopologyOptions();

    @Option(names = "--format", defaultValue = "shell", description = "shell (VOLUMIZER_<NAME>=value lines) or yaml "
            + "(default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == Format.yaml ? yaml(names()) : shell(names()));
        out.flush();
        return 0;
    }

    /** Every name, by what it names. */
    Map<String, Object> names() {
        TopicNames topics = TopicNames.of(repository);
        List<String> repositories = topology.topology().map(Topology::repositories)
                .orElse(repository == null ? List.of() : List.of(repository));
        IndexNames indices = new IndexNames(IndexNames.DEFAULT_PREFIX,
                topology.topology().map(Topology::aliases).orElse(Map.of()));
        Map<String, String> aliases = new LinkedHashMap<>();
        repositories.forEach(each -> aliases.put(each, indices.of(each)));

        Map<String, Object> names = new LinkedHashMap<>();
        if (repository != null) {
            names.put("repository", repository);
        }
        names.put("topics", ordered("documents", topics.documents(), "imported", topics.imported(),
                "deadletter", topics.deadletter(), "control", topics.control()));
        names.put("consumerGroups", ordered("import", Step.IMPORT.consumerGroup(repository),
                "index", Step.INDEX.consumerGroup(repository)));
        names.put("elasticsearch", ordered("indexPrefix", indices.prefix(), "indexPrefixPattern", IndexNames.PREFIX_PATTERN,
                "indices", indices.all(), "template", indices.template(), "aliases", aliases));
        names.put("mongodb", ordered("database", MongoOptions.DEFAULT_DATABASE));
        names.put("metrics", ordered("stagePrefix", MetricNames.PROMETHEUS_PREFIX,
                "stage", sorted(MetricNames.stagePrometheusNames()), "api", sorted(MetricNames.apiPrometheusNames())));
        return names;
    }

    /** {@code VOLUMIZER_TOPICS_DOCUMENTS=volumizer.demo.documents}: one line per name, a list space-separated. */
    static String shell(Map<String, Object> names) {
        StringBuilder lines = new StringBuilder();
        flatten("VOLUMIZER", names, lines);
        return lines.toString();
    }

    private static void flatten(String key, Object value, StringBuilder lines) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((name, inner) -> flatten(key + "_" + variable(name.toString()), inner, lines));
        } else {
            String text = value instanceof List<?> list
                    ? String.join(" ", list.stream().map(Object::toString).toList()) : value.toString();
            lines.append(key).append('=').append(quoted(text)).append('\n');
        }
    }

    /** consumerGroups → CONSUMER_GROUPS, us-east → US_EAST. */
    private static String variable(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /** As the shell reads it back: bare when nothing in it is special, else in single quotes. */
    private static String quoted(String text) {
        return text.matches("[A-Za-z0-9._/:@%+,=-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    static String yaml(Map<String, Object> names) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(names);
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    /** The command as bin/volumizer runs it, which passes the demo's repository first: a later --repository wins. */
    static CommandLine commandLine() {
        return new CommandLine(new ConventionsCommand()).setOverwrittenOptionsAllowed(true)
                .setExecutionExceptionHandler(Failures::oneLine);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
