package io.volumizer.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchOptions;

/**
 * The chart's names against Java's, which define them (options/.../conventions, IndexNames, MongoOptions): its
 * defaults, its schema's rules, what its templates and profiles pass the jobs, and every query of its dashboard.
 * Read from the files, without helm: it runs in every build.
 */
class ChartConventionsTest {

    private static final Path CHART = Path.of("volumizer");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The options that name a topic, a group or a store: the jobs derive them; a profile that sets them forks the rule. */
    private static final List<String> DERIVED = List.of("--documents-topic", "--imported-topic", "--deadletter-topic",
            "--topics-of", "--group-id", "--index-group-id", "--index-prefix", "--mongodb-database");

    /** The labels the dashboard may group or match by: Volumizer's own (Java's), and Prometheus' and Flink's. */
    private static final Set<String> LABELS = Set.of(MetricNames.STAGE_LABEL, MetricNames.REASON_LABEL,
            MetricNames.ROUTE_LABEL, MetricNames.METHOD_LABEL, MetricNames.STATUS_LABEL, MetricNames.CLASS_LABEL,
            "le", "quantile", "instance", "job_name", "area");

    /** Volumizer's metrics, as a dashboard spells them: each must be one Java exports. */
    private static final Pattern STAGE_METRIC = Pattern.compile("\\bflink_taskmanager_job_task_operator_volumizer\\w*");
    private static final Pattern API_METRIC = Pattern.compile("\\bvolumizer_api\\w*");
    private static final Pattern HOLD_METRIC = Pattern.compile("\\bvolumizer_hold\\w*");
    private static final Pattern GROUPED_BY = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern MATCHED = Pattern.compile("\\{([^}]*)}");
    private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");

    @Test
    void theDefaultsAreJavas() throws IOException {
        JsonNode values = YAML.readTree(CHART.resolve("values.yaml").toFile());
        JsonNode services = values.path("services");

        assertThat(services.path("search").path("indexPrefix").asText()).as("services.search.indexPrefix")
                .isEqualTo(IndexNames.DEFAULT_PREFIX);
        assertThat(services.path("search").path("engine").asText()).as("services.search.engine")
                .isEqualTo(new SearchOptions().engine.name());
        assertThat(services.path("mongodb").path("database").asText()).as("services.mongodb.database")
                .isEqualTo(MongoOptions.DEFAULT_DATABASE);
        assertThat(values.path("repository").asText()).as("repository").matches(RepositoryNames.PATTERN);
    }

    @Test
    void theSchemaRefusesWhatJavaRefuses() throws IOException {
        JsonNode properties = JSON.readTree(CHART.resolve("values.schema.json").toFile()).path("properties");

        JsonNode search = properties.path("services").path("properties").path("search").path("properties");
        assertThat(search.path("indexPrefix").path("pattern").asText()).as("indexPrefix's pattern")
                .isEqualTo("^" + IndexNames.PREFIX_PATTERN + "$");
        assertThat(search.path("engine").path("enum")).as("the engines --search-engine takes")
                .extracting(JsonNode::asText).containsExactly(Arrays.stream(SearchOptions.Engine.values())
                        .map(Enum::name).toArray(String[]::new));
        assertThat(properties.path("repository").path("pattern").asText()).as("repository's pattern")
                .isEqualTo("^" + RepositoryNames.PATTERN + "$");
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-import.yaml", "values-run.yaml", "values-csv.yaml", "values-live.yaml"})
    void noProfileNamesATopicGroupOrStoreTheJobsDerive(String profile) throws IOException {
        JsonNode steps = YAML.readTree(CHART.resolve(profile).toFile()).path("steps");

        steps.fields().forEachRemaining(step -> step.getValue().path("args").forEach(arg ->
                assertThat(DERIVED).as("%s: steps.%s.args holds %s; the chart derives it from 'repository' or "
                        + "'services' (_helpers.tpl), by Java's rule", profile, step.getKey(), arg.asText())
                        .doesNotContain(arg.asText().split("=")[0])));
    }

    @Test
    void theTemplatesPassTheRepositoryAndSpellNoTopicOrGroup() throws IOException {
        String helpers = Files.readString(CHART.resolve("templates/_helpers.tpl"));
        assertThat(helpers).containsPattern("- --topics-of\\s+- \\{\\{ \\.Values\\.repository \\| quote }}");

        try (Stream<Path> templates = Files.list(CHART.resolve("templates"))) {
            for (Path template : templates.toList()) {
                String text = Files.readString(template);
                assertThat(text).as("%s spells a topic or a group (Java's TopicNames, ConsumerGroups derive them)", template)
                        .doesNotContain(TopicNames.PREFIX + "%s", ConsumerGroups.PREFIX + "%s-",
                                "--documents-topic", "--imported-topic", "--deadletter-topic", "--group-id",
                                "--index-group-id");
            }
        }
    }

    @Test
    void everyMetricAndLabelTheDashboardQueriesIsJavas() throws IOException {
        JsonNode dashboard = JSON.readTree(CHART.resolve("dashboards/volumizer.json").toFile());
        Set<String> stageMetrics = new TreeSet<>();
        Set<String> apiMetrics = new TreeSet<>();
        Set<String> holdMetrics = new TreeSet<>();
        Set<String> labels = new TreeSet<>();
        // Every panel's targets, rows' panels included.
        List<JsonNode> targets = dashboard.findValues("targets").stream()
                .flatMap(panel -> panel.findParents("expr").stream()).toList();
        assertThat(targets).as("the dashboard's queries").isNotEmpty();
        for (JsonNode target : targets) {
            String expr = target.path("expr").asText();
            STAGE_METRIC.matcher(expr).results().forEach(m -> stageMetrics.add(m.group()));
            API_METRIC.matcher(expr).results().forEach(m -> apiMetrics.add(m.group()));
            HOLD_METRIC.matcher(expr).results().forEach(m -> holdMetrics.add(m.group()));
            GROUPED_BY.matcher(expr).results().forEach(m -> labels.addAll(List.of(m.group(1).split("\\s*,\\s*"))));
            MATCHED.matcher(expr).results().forEach(m -> Stream.of(m.group(1).split(","))
                    .map(matcher -> matcher.split("[=!~]")[0].strip()).forEach(labels::add));
            LEGEND.matcher(target.path("legendFormat").asText()).results().forEach(m -> labels.add(m.group(1)));
        }

        assertThat(stageMetrics).as("the stage metrics the dashboard queries").hasSizeGreaterThanOrEqualTo(5)
                .isSubsetOf(MetricNames.stagePrometheusNames());
        assertThat(apiMetrics).as("the API metrics the dashboard queries").hasSizeGreaterThanOrEqualTo(3)
                .isSubsetOf(MetricNames.apiPrometheusNames());
        assertThat(holdMetrics).as("the hold controller's metrics the dashboard queries").isNotEmpty()
                .isSubsetOf(MetricNames.holdPrometheusNames());
        assertThat(labels).as("the labels the dashboard groups and matches by").contains(MetricNames.STAGE_LABEL)
                .isSubsetOf(LABELS);
    }
}
