package io.volumizer.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.FlinkSessionJob;
import org.apache.flink.kubernetes.operator.api.spec.FlinkVersion;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import picocli.CommandLine;

import io.volumizer.api.ApiOptions;
import io.volumizer.api.ApiServer;
import io.volumizer.api.commands.FlinkSessionJobs;
import io.volumizer.ops.plan.PlanCommand;
import io.volumizer.options.Options;
import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.steps.CsvImportOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.stores.search.SearchOptions;

/**
 * The chart as the Flink Kubernetes Operator and the jobs will read it, for every profile: each rendered
 * FlinkDeployment valid against the operator's CRD (of the release the chart is for, vendored in the test resources)
 * and read into the operator's own classes (and written back whole: a field the classes do not know would be lost),
 * its entry class the step's, its arguments accepted by the step's own options class; and values the chart's schema
 * refuses, named.
 */
class HelmChartTest {

    private static final Path CHART = Path.of("volumizer");
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    /** Equal trees, a number equal to the same number written otherwise (the operator reads cpu: 1 as 1.0). */
    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue())
            : a.equals(b) ? 0 : 1;

    /** The chart's values files: none (its defaults), then each profile. */
    static Stream<String> profiles() {
        return Stream.of("", "values-import.yaml", "values-run.yaml", "values-csv.yaml", "values-opensearch.yaml",
                "values-live.yaml");
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void everyFlinkDeploymentIsWhatTheOperatorAndTheJobReadIt(String profile) throws Exception {
        String repository = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("repository").asText();
        assertFlinkDeploymentsAreWhatTheOperatorAndTheJobsReadThem(render(profile), repository, "profile '" + profile + "'");
    }

    /**
     * Every FlinkDeployment of {@code resources} as the operator's classes and its job read it: the build's Flink line,
     * read and written back whole, its entry class the step's, its arguments accepted by the step's options class with
     * the topics and consumer group of {@code repository}, no credential among them.
     */
    static void assertFlinkDeploymentsAreWhatTheOperatorAndTheJobsReadThem(List<JsonNode> resources, String repository,
            String what) throws Exception {
        List<JsonNode> deployments = new ArrayList<>();
        for (JsonNode resource : resources) {
            if ("FlinkDeployment".equals(resource.path("kind").asText())) {
                deployments.add(resource);
            }
        }
        assertThat(deployments).as("FlinkDeployments of %s", what).isNotEmpty();
        for (JsonNode rendered : deployments) {
            // The operator's classes that resolve here (operator-api 1.10.0) know Flink versions up to v1_20 alone: the
            // rendered flinkVersion is the build's Flink line and one the vendored CRD accepts; the classes read the rest.
            String flinkVersion = rendered.path("spec").path("flinkVersion").asText();
            assertThat(flinkVersion).as("flinkVersion: the Flink the jobs are built on").isEqualTo(buildFlinkVersion());
            assertThat(crdFlinkVersions(rendered.path("apiVersion").asText()))
                    .as("the Flink versions the operator's CRD accepts").contains(flinkVersion);
            ObjectNode forClasses = rendered.deepCopy();
            ((ObjectNode) forClasses.path("spec")).put("flinkVersion", FlinkVersion.current().name());
            FlinkDeployment deployment = YAML.treeToValue(forClasses, FlinkDeployment.class);
            JsonNode readBack = ((ObjectNode) YAML.valueToTree(deployment).path("spec")).put("flinkVersion", flinkVersion);
            assertThat(readBack.equals(NUMBERS_BY_VALUE, rendered.path("spec")))
                    .as("%s as the operator reads it:%n%s%nrendered:%n%s", rendered.path("metadata").path("name").asText(),
                            readBack, rendered.path("spec"))
                    .isTrue();

            var configuration = deployment.getSpec().getFlinkConfiguration();
            assertThat(configuration).containsKeys("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir",
                    "high-availability.type");
            assertThat(deployment.getSpec().getPodTemplate().getSpec().getContainers().get(0).getName())
                    .isEqualTo("flink-main-container");
            JsonNode stepLabel = rendered.path("metadata").path("labels").path("volumizer.io/step");
            if (stepLabel.isMissingNode()) {
                assertThat(deployment.getSpec().getJob()).as("the commands' session cluster runs no job of its own")
                        .isNull();
                continue;
            }
            Step step = Step.named(stepLabel.asText());
            var job = deployment.getSpec().getJob();
            assertThat(job.getEntryClass()).isEqualTo(step.mainClass());
            assertThat(job.getJarURI()).isEqualTo("local:///opt/flink/usrlib/volumizer-jobs.jar");
            PipelineStepOptions options = (PipelineStepOptions) step.parse(List.of(job.getArgs()));
            assertThat(options).as("%s's arguments %s", step.id(), List.of(job.getArgs())).isNotNull();
            assertThat(List.of(options.pipeline.documentsTopic(), options.pipeline.importedTopic(),
                    options.pipeline.deadletterTopic(), options.pipeline.controlTopic())).as("%s's topics", step.id())
                    .isEqualTo(TopicNames.of(repository).all());
            if (step == Step.IMPORT_CSV) {
                assertThat(((CsvImportOptions) options).repository).as("the CSV import's repository").isEqualTo(repository);
            } else if (List.of(job.getArgs()).contains("only")) {
                assertThat(step).isEqualTo(Step.INDEX);
                assertThat(options.instance()).as("the files' text job's consumer group")
                        .isEqualTo(ConsumerGroups.of(repository, ConsumerGroups.FILE_TEXT));
            } else if (step != Step.GENERATE) {
                assertThat(options.instance()).as("%s's consumer group", step.id()).isEqualTo(step.consumerGroup(repository));
            }
            assertThat(String.join(" ", job.getArgs())).doesNotContain("--mongodb-uri").doesNotContain("sasl.jaas.config");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"docker/Dockerfile", "docker/Dockerfile.api"})
    void whatTheImagesCopyIsWhatTheBuildMakes(String dockerfile) throws IOException {
        List<String> copied = Files.readString(Path.of(dockerfile)).lines().filter(line -> line.startsWith("COPY "))
                .map(line -> line.split("\\s+")[1]).toList();
        assertThat(copied).isNotEmpty();
        for (String source : copied) {
            assertThat(Path.of("..").resolve(source)).as("what %s copies", dockerfile).exists();
        }
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void theChartLintsStrictly(String profile) throws Exception {
        Result result = helm("lint", profile, "--strict");
        assertThat(result.exitCode).as("helm lint --strict %s: %s%s", profile, result.out, result.err).isZero();
    }

    /**
     * kubeconform -strict against the Kubernetes API's schemas and the operator's CRDs, made here from the
     * Kubernetes OpenAPI document ({@code -Dvolumizer.kubernetes.swagger}) and the operator release's CRDs vendored in
     * the test resources.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyResourceValidatesStrictlyAgainstTheKubernetesAndOperatorSchemas(String profile) throws Exception {
        Result rendered = helm("template", profile);
        assertThat(rendered.exitCode).as(rendered.err).isZero();
        assertValidates(rendered.out, profile);
    }

    /** The parts no profile turns on, and the values that change the API's NetworkPolicy, Secret and arguments. */
    static Stream<List<String>> optionalParts() {
        return Stream.of(
                List.of("--set", "api.ingress.enabled=true", "--set", "api.ingress.className=nginx",
                        "--set", "api.ingress.host=volumizer.example.com", "--set", "api.ingress.tlsSecret=volumizer-tls",
                        "--set", "api.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=64m",
                        "--set", "api.trustedProxies={10.0.0.0/8,192.168.1.7}"),
                List.of("--set", "networkPolicy.flinkOperator.namespace=flink-operator",
                        "--set", "networkPolicy.managementFrom[0].ipBlock.cidr=10.0.0.0/16",
                        "--set", "networkPolicy.apiFrom[0].namespaceSelector.matchLabels.name=ingress-nginx",
                        "--set", "networkPolicy.apiFrom[0].podSelector.matchLabels.app=ingress-nginx"),
                List.of("--set", "commands.enabled=false", "--set", "api.metricsTokenSecret=volumizer-metrics"),
                List.of("--set", "api.oidc.allowInsecureIssuer=true", "--set",
                        "api.oidc.issuer=http://keycloak.identity.svc:8080/realms/volumizer"));
    }

    @ParameterizedTest
    @MethodSource("optionalParts")
    void theOptionalPartsValidateStrictlyAgainstTheKubernetesSchemas(List<String> values) throws Exception {
        Result rendered = helm("template", "", values.toArray(String[]::new));
        assertThat(rendered.exitCode).as("%s: %s", values, rendered.err).isZero();
        assertValidates(rendered.out, values.toString());
    }

    /** kubeconform -strict on {@code manifests}: every resource valid, none skipped for want of a schema. */
    static void assertValidates(String manifests, String what) throws Exception {
        Path file = Files.createTempFile("rendered", ".yaml");
        try {
            Files.writeString(file, manifests);
            Result validated = run(List.of(tool("volumizer.kubeconform"), "-strict", "-summary", "-schema-location",
                    schemas() + "/{{ .ResourceKind }}{{ .KindSuffix }}.json", file.toString()));
            assertThat(validated.exitCode).as("kubeconform %s:%n%s%s", what, validated.out, validated.err).isZero();
            assertThat(validated.out).contains("Invalid: 0, Errors: 0, Skipped: 0");
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void theApiIsGivenTheRepositoryItsCommandsJobsDeriveTheirTopicsFrom() throws Exception {
        String repository = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("repository").asText();
        assertThat(apiArgs(render(""))).containsSequence("--topics-of", repository).doesNotContain("--documents-topic");
    }

    /**
     * Reindex and bulk commands run on Kubernetes: each a FlinkSessionJob the API creates on the chart's session
     * cluster, of the jobs jar its image carries, served to the operator by the API's management Service; the jobs are
     * read from the REST Service the operator makes for that cluster. Without that cluster, the API is given no jar (its
     * commands answer 503, as they say).
     */
    @Test
    void theApiRunsCommandsAsFlinkSessionJobsOnTheChartsSessionClusterFromTheJarItsImageCarries() throws Exception {
        List<JsonNode> resources = render("");
        JsonNode session = sessionCluster(resources);
        String sessionName = session.path("metadata").path("name").asText();
        List<String> args = apiArgs(resources);
        String jar = args.get(args.indexOf("--jobs-jar") + 1);
        URI jarUri = URI.create(args.get(args.indexOf("--jobs-jar-uri") + 1));
        // the operator runs in a namespace of its own, often: the Service by its full name
        String[] host = jarUri.getHost().split("\\.", 3);
        JsonNode management = resources.stream().filter(r -> "Service".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("name").asText().equals(host[0])).findFirst().orElseThrow();

        assertThat(args).containsSequence("--session-job-deployment", sessionName)
                .containsSequence("--flink-rest", "http://" + sessionName + "-rest:8081");
        assertThat(jarUri.getPath()).isEqualTo(ApiServer.JOBS_JAR_PATH);
        assertThat(host).as("the Service's full name").containsExactly(host[0], "default", "svc");
        assertThat(management.path("spec").path("ports").get(0).path("port").asInt()).isEqualTo(jarUri.getPort());
        assertThat(management.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo("management");
        assertThat(management.path("spec").path("selector").path("app.kubernetes.io/component").asText()).isEqualTo("api");
        assertThat(Files.readString(Path.of("docker/Dockerfile.api")).lines().filter(line -> line.startsWith("COPY "))
                .map(line -> line.split("\\s+")[2])).as("what the API image copies").contains(jar);
        assertThat(session.path("spec").path("serviceAccount").asText())
                .as("the session cluster's JobManager makes its TaskManagers")
                .isEqualTo(YAML.readTree(CHART.resolve("values.yaml").toFile()).path("serviceAccount").path("name").asText());

        List<JsonNode> without = render("", "--set", "commands.enabled=false");
        assertThat(without).filteredOn(r -> "FlinkDeployment".equals(r.path("kind").asText()))
                .allSatisfy(deployment -> assertThat(deployment.path("spec").path("job").isMissingNode()).isFalse());
        assertThat(apiArgs(without)).doesNotContain("--jobs-jar", "--flink-rest", "--session-job-deployment");
        assertThat(without).extracting(r -> r.path("metadata").path("name").asText()).doesNotContain(host[0]);
        assertThat(failure("--set", "api.serviceAccount.create=false", "--set", "api.serviceAccount.name="))
                .contains("not the namespace's default account");
    }

    /**
     * A reindex command's resources as the API makes them in the cluster: the API's arguments as rendered, parsed by the
     * API's options; the FlinkSessionJob its command service creates from them, validated strictly against the
     * operator's CRD and read into the operator's own class; the job's arguments accepted by the reindex's options.
     */
    @Test
    void aReindexCommandsFlinkSessionJobValidatesAgainstTheOperatorsCrdAndRunsOnTheSessionCluster() throws Exception {
        String repository = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("repository").asText();
        assertReindexCommandRuns(render(""), repository, List.of());
    }

    /**
     * A reindex command of {@code repository} as the API makes it in the cluster: the API's arguments as rendered in
     * {@code resources}, parsed by the API's options; the FlinkSessionJob its command service creates from them and the
     * request's {@code requestOptions}, validated strictly against the operator's CRD and read into the operator's own
     * class, on the chart's session cluster; the job's arguments accepted by the reindex's options.
     */
    static void assertReindexCommandRuns(List<JsonNode> resources, String repository, List<String> requestOptions)
            throws Exception {
        ApiOptions api = Options.parse(new ApiOptions(), apiArgs(resources).toArray(String[]::new));
        String commandId = "reindex-" + repository + "-20261128-160000-0123abcd";
        List<String> arguments = new ArrayList<>(api.jobArguments());
        arguments.addAll(List.of("--repository", repository, "--command-id", commandId));
        arguments.addAll(requestOptions);
        FlinkSessionJob command = FlinkSessionJobs.resource(commandId, api.sessionJobDeployment, api.jobsJarUri,
                Step.REINDEX, arguments, null);
        command.getMetadata().setNamespace("volumizer");
        JsonNode rendered = YAML.valueToTree(command);

        Path manifest = Files.createTempFile("reindex-command", ".yaml");
        try {
            Files.writeString(manifest, YAML.writeValueAsString(rendered));
            Result validated = run(List.of(tool("volumizer.kubeconform"), "-strict", "-summary", "-schema-location",
                    schemas() + "/{{ .ResourceKind }}{{ .KindSuffix }}.json", manifest.toString()));
            assertThat(validated.exitCode).as("kubeconform:%n%s%s%n%s", validated.out, validated.err, rendered).isZero();
            assertThat(validated.out).contains("Valid: 1, Invalid: 0, Errors: 0, Skipped: 0");
        } finally {
            Files.delete(manifest);
        }
        JsonNode readBack = YAML.valueToTree(YAML.treeToValue(rendered, FlinkSessionJob.class)).path("spec");
        assertThat(readBack).as("as the operator reads it").isEqualTo(rendered.path("spec"));
        assertThat(command.getSpec().getDeploymentName()).isEqualTo(sessionCluster(resources).path("metadata").path("name").asText());
        var job = command.getSpec().getJob();
        assertThat(job.getEntryClass()).isEqualTo(Step.REINDEX.mainClass());
        assertThat(job.getJarURI()).endsWith(ApiServer.JOBS_JAR_PATH);
        PipelineStepOptions options = (PipelineStepOptions) Step.REINDEX.parse(List.of(job.getArgs()));
        assertThat(options.pipeline.documentsTopic()).isEqualTo(TopicNames.of(repository).documents());
        assertThat(String.join(" ", job.getArgs())).doesNotContain("--mongodb-uri").doesNotContain("sasl.jaas.config");
    }

    private static JsonNode sessionCluster(List<JsonNode> resources) {
        return resources.stream().filter(r -> "FlinkDeployment".equals(r.path("kind").asText()))
                .filter(r -> r.path("spec").path("job").isMissingNode()).findFirst().orElseThrow();
    }

    static List<String> apiArgs(List<JsonNode> resources) {
        JsonNode api = resources.stream()
                .filter(r -> "Deployment".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("api"))
                .findFirst().orElseThrow();
        List<String> args = new ArrayList<>();
        api.path("spec").path("template").path("spec").path("containers").get(0).path("args")
                .forEach(arg -> args.add(arg.asText()));
        return args;
    }

    /** A restarted registry must know every schema id it gave out: the clients' cached ids are in the topics. */
    @Test
    void theChartsRegistryKeepsItsSchemasInKafkaNotInMemory() throws Exception {
        String kafka = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("services").path("kafka")
                .path("bootstrapServers").asText();
        JsonNode container = render("").stream()
                .filter(r -> "Deployment".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("registry"))
                .findFirst().orElseThrow().path("spec").path("template").path("spec").path("containers").get(0);
        java.util.Map<String, String> env = new java.util.HashMap<>();
        container.path("env").forEach(variable -> env.put(variable.path("name").asText(), variable.path("value").asText()));

        assertThat(env).containsEntry("APICURIO_STORAGE_KIND", "kafkasql")
                .containsEntry("APICURIO_KAFKASQL_BOOTSTRAP_SERVERS", kafka);
        assertThat(container.path("image").asText()).doesNotContain("-mem");
    }

    /**
     * The Flink pods' account may create and delete pods (a JobManager's TaskManagers); the API's may manage
     * FlinkSessionJobs, the commands', alone, and only when the chart runs commands (else it gets no token). Every
     * grant is of the release's namespace, and names its groups, resources and verbs: no wildcard. (No rule names
     * resources: a command's FlinkSessionJob is named after the command, unknown beforehand, and resourceNames
     * matches whole names only.)
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void theApiRunsUnderAServiceAccountOfItsOwnAllowedTheCommandsFlinkSessionJobsAlone(String profile) throws Exception {
        for (boolean commands : List.of(true, false)) {
            List<JsonNode> resources = render(profile, "--set", "commands.enabled=" + commands);
            JsonNode pod = resources.stream()
                    .filter(r -> "Deployment".equals(r.path("kind").asText()))
                    .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("api"))
                    .findFirst().orElseThrow().path("spec").path("template").path("spec");
            String account = pod.path("serviceAccountName").asText();

            assertThat(account).isNotBlank();
            assertThat(resources).filteredOn(r -> "ServiceAccount".equals(r.path("kind").asText()))
                    .extracting(r -> r.path("metadata").path("name").asText()).contains(account);
            assertThat(resources).filteredOn(r -> "FlinkDeployment".equals(r.path("kind").asText()))
                    .isNotEmpty()
                    .extracting(r -> r.path("spec").path("serviceAccount").asText()).doesNotContain(account);
            List<String> rolesOfTheApi = new ArrayList<>();
            List<String> bound = new ArrayList<>();
            resources.stream().filter(r -> r.path("kind").asText().endsWith("RoleBinding")).forEach(binding ->
                    binding.path("subjects").forEach(subject -> {
                        bound.add(subject.path("name").asText());
                        if (subject.path("name").asText().equals(account)) {
                            rolesOfTheApi.add(binding.path("roleRef").path("name").asText());
                        }
                    }));
            assertThat(bound).as("service accounts bound to a role").isNotEmpty();
            assertThat(resources).extracting(r -> r.path("kind").asText()).as("grants beyond the namespace")
                    .doesNotContain("ClusterRole", "ClusterRoleBinding");
            assertThat(resources).filteredOn(r -> "RoleBinding".equals(r.path("kind").asText()))
                    .extracting(r -> r.path("roleRef").path("kind").asText()).containsOnly("Role");
            List<String> granted = new ArrayList<>();
            resources.stream().filter(r -> "Role".equals(r.path("kind").asText()))
                    .forEach(role -> role.path("rules").forEach(rule -> List.of("apiGroups", "resources", "verbs")
                            .forEach(field -> rule.path(field).forEach(value -> granted.add(value.asText())))));
            assertThat(granted).as("what the Roles grant").isNotEmpty().noneMatch(value -> value.contains("*"));
            List<JsonNode> rules = new ArrayList<>();
            resources.stream().filter(r -> "Role".equals(r.path("kind").asText()))
                    .filter(r -> rolesOfTheApi.contains(r.path("metadata").path("name").asText()))
                    .forEach(role -> role.path("rules").forEach(rules::add));
            assertThat(pod.path("automountServiceAccountToken").asBoolean()).as("token mounted").isEqualTo(commands);
            if (!commands) {
                assertThat(rolesOfTheApi).as("the API's roles without commands").isEmpty();
                continue;
            }
            assertThat(rolesOfTheApi).hasSize(1);
            assertThat(rules).hasSize(1);
            assertThat(rules.get(0).path("apiGroups").toString()).isEqualTo("[\"flink.apache.org\"]");
            assertThat(rules.get(0).path("resources").toString()).isEqualTo("[\"flinksessionjobs\"]");
            List<String> verbs = new ArrayList<>();
            rules.get(0).path("verbs").forEach(verb -> verbs.add(verb.asText()));
            assertThat(verbs).as("what the API does with FlinkSessionJobs").containsExactlyInAnyOrderElementsOf(FlinkSessionJobs.VERBS);
        }
    }

    /**
     * An external cluster of either kind: its credentials from a Secret, by reference, into the environment variables
     * SearchOptions reads; its CA certificates mounted where --search-ca-file says; or, on AWS, every request signed.
     */
    @Test
    void anExternalSearchClusterIsReachedWithTheSecretsCredentialsAndCaOrBySignedRequests() throws Exception {
        List<JsonNode> external = render("values-opensearch.yaml");
        assertThat(containers(external)).hasSizeGreaterThan(1).allSatisfy(container -> {
            List<String> args = args(container);
            assertThat(args).containsSequence("--search-engine", "opensearch")
                    .containsSequence("--search-username", "volumizer");
            String caFile = args.get(args.indexOf("--search-ca-file") + 1);
            JsonNode mount = mount(container, "search-ca");
            assertThat(caFile).isEqualTo(mount.path("mountPath").asText() + "/ca.pem");
            for (var secret : List.of(List.of(SearchOptions.PASSWORD_ENV, "password"), List.of(SearchOptions.API_KEY_ENV, "apiKey"))) {
                JsonNode reference = env(container, secret.get(0)).path("valueFrom").path("secretKeyRef");
                assertThat(reference.path("name").asText()).as(secret.get(0)).isEqualTo("volumizer-search");
                assertThat(reference.path("key").asText()).isEqualTo(secret.get(1));
                assertThat(reference.path("optional").asBoolean()).as("a Secret may hold one of the two").isTrue();
            }
        });
        assertThat(pods(external)).allSatisfy(pod -> assertThat(pod.path("volumes").toString())
                .contains("\"secretName\":\"volumizer-search-ca\"", "\"key\":\"ca.pem\""));

        List<JsonNode> defaults = render("");
        assertThat(containers(defaults)).allSatisfy(container -> {
            assertThat(args(container)).containsSequence("--search-engine", "auto")
                    .doesNotContain("--search-username", "--search-ca-file", "--search-aws-region");
            assertThat(container.path("env").toString()).doesNotContain(SearchOptions.PASSWORD_ENV);
            assertThat(container.path("volumeMounts").findValuesAsText("name")).doesNotContain("search-ca");
        });

        List<JsonNode> signed = render("", "--set", "services.search.aws.region=eu-west-1", "--set",
                "services.search.aws.service=aoss");
        assertThat(containers(signed)).isNotEmpty().allSatisfy(container -> assertThat(args(container))
                .containsSequence("--search-aws-region", "eu-west-1", "--search-aws-service", "aoss"));
        assertThat(failure("--set", "services.search.engine=solr")).contains("engine");
        assertThat(failure("-f", CHART.resolve("values-opensearch.yaml").toString(), "--set",
                "services.search.aws.region=eu-west-1")).contains("leave username and credentialsSecret empty");
        assertThat(failure("--set", "services.search.username=volumizer")).contains("needs credentialsSecret");
    }

    /**
     * The Volumizer pods: each FlinkDeployment's (its job's arguments given to its main container; the commands'
     * session cluster's jobs are given the API's service options) and the API's.
     */
    private static List<JsonNode> pods(List<JsonNode> resources) {
        List<JsonNode> pods = new ArrayList<>();
        for (JsonNode resource : resources) {
            if ("FlinkDeployment".equals(resource.path("kind").asText())) {
                ObjectNode pod = resource.path("spec").path("podTemplate").path("spec").deepCopy();
                JsonNode job = resource.path("spec").path("job");
                ((ObjectNode) pod.path("containers").get(0)).set("args", job.isMissingNode()
                        ? YAML.valueToTree(apiArgs(resources)) : job.path("args"));
                pods.add(pod);
            } else if ("Deployment".equals(resource.path("kind").asText())
                    && "api".equals(resource.path("metadata").path("labels").path("app.kubernetes.io/component").asText())) {
                pods.add(resource.path("spec").path("template").path("spec"));
            }
        }
        return pods;
    }

    private static List<JsonNode> containers(List<JsonNode> resources) {
        return pods(resources).stream().map(pod -> pod.path("containers").get(0)).toList();
    }

    private static List<String> args(JsonNode container) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));
        return args;
    }

    private static JsonNode mount(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (volume.equals(mount.path("name").asText())) {
                return mount;
            }
        }
        throw new AssertionError(volume + " not in " + container.path("volumeMounts"));
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (name.equals(variable.path("name").asText())) {
                return variable;
            }
        }
        throw new AssertionError(name + " not in " + container.path("env"));
    }

    @Test
    void theApiTrustsTheIssuerAndServesMetricsAndProbesOnItsManagementPortOnly() throws Exception {
        JsonNode values = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("api");
        JsonNode pod = render("").stream()
                .filter(r -> "Deployment".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("api"))
                .findFirst().orElseThrow().path("spec").path("template");
        JsonNode container = pod.path("spec").path("containers").get(0);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));
        String metricsPort = values.path("metricsPort").asText();

        assertThat(args).containsSequence("--oidc-issuer", values.path("oidc").path("issuer").asText())
                .containsSequence("--metrics-port", metricsPort).doesNotContain("--token", "--oidc-audience");
        assertThat(env(container, "VOLUMIZER_METRICS_TOKEN").has("value")).as("the metrics token, by reference").isFalse();
        assertThat(container.path("readinessProbe").path("httpGet").path("port").asText()).isEqualTo("management");
        assertThat(pod.path("metadata").path("annotations").path("prometheus.io/port").asText()).isEqualTo(metricsPort);
        JsonNode service = render("").stream().filter(r -> "Service".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("api"))
                .findFirst().orElseThrow();
        assertThat(service.path("spec").path("ports").toString()).doesNotContain("management", metricsPort);
    }

    @Test
    void theGrafanaDashboardShipsAsAConfigMapForGrafanasSidecarUnchanged() throws Exception {
        JsonNode dashboard = render("").stream()
                .filter(r -> "ConfigMap".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("grafana_dashboard").asText().equals("1"))
                .findFirst().orElseThrow();
        ObjectMapper json = new ObjectMapper();
        JsonNode file = json.readTree(CHART.resolve("dashboards/volumizer.json").toFile());
        assertThat(json.readTree(dashboard.path("data").path("volumizer.json").asText())).isEqualTo(file);
        assertThat(file.path("panels")).as("panels").hasSizeGreaterThanOrEqualTo(10);
    }

    /**
     * Every pod the chart renders, whatever its kind (a FlinkDeployment's pod template too): a user and group other than
     * root, the runtime's seccomp profile; each of its containers on a read-only root filesystem, without privilege
     * escalation or any capability, writing to emptyDir volumes only: /tmp, and Flink's log folder.
     */
    @ParameterizedTest
    @MethodSource("profiles")
    void everyContainerRunsAsNonRootOnAReadOnlyRootWithoutPrivileges(String profile) throws Exception {
        List<JsonNode> resources = render(profile, "--set", "api.ingress.enabled=true", "--set",
                "api.trustedProxies={10.0.0.0/8}");
        String apiUser = Files.readString(Path.of("docker/Dockerfile.api")).lines()
                .filter(line -> line.startsWith("USER ")).reduce((first, last) -> last).orElseThrow().split("[ :]")[1];
        List<String> kinds = new ArrayList<>();
        for (JsonNode resource : resources) {
            String kind = resource.path("kind").asText();
            for (JsonNode pod : resource.findParents("containers")) {
                kinds.add(kind);
                JsonNode context = pod.path("securityContext");
                String what = kind + " " + resource.path("metadata").path("name").asText();
                assertThat(context.path("runAsNonRoot").asBoolean()).as("%s: runAsNonRoot", what).isTrue();
                for (String id : List.of("runAsUser", "runAsGroup", "fsGroup")) {
                    assertThat(context.path(id).asInt()).as("%s: %s", what, id).isPositive();
                }
                assertThat(context.path("seccompProfile").path("type").asText()).as("%s: seccomp", what)
                        .isEqualTo("RuntimeDefault");
                if ("api".equals(resource.path("metadata").path("labels").path("app.kubernetes.io/component").asText())) {
                    assertThat(context.path("runAsUser").asText()).as("the API image's user").isEqualTo(apiUser);
                }
                List<JsonNode> containers = new ArrayList<>();
                pod.path("containers").forEach(containers::add);
                pod.path("initContainers").forEach(containers::add);
                List<String> scratch = new ArrayList<>();
                pod.path("volumes").forEach(volume -> {
                    if (volume.has("emptyDir")) {
                        scratch.add(volume.path("name").asText());
                    }
                });
                for (JsonNode container : containers) {
                    JsonNode own = container.path("securityContext");
                    String where = what + "/" + container.path("name").asText();
                    assertThat(own.path("readOnlyRootFilesystem").asBoolean()).as("%s: read-only root", where).isTrue();
                    assertThat(own.path("allowPrivilegeEscalation").isBoolean()
                            && !own.path("allowPrivilegeEscalation").asBoolean()).as("%s: no privilege escalation", where)
                            .isTrue();
                    assertThat(own.path("privileged").asBoolean()).as("%s: privileged", where).isFalse();
                    List<String> dropped = new ArrayList<>();
                    own.path("capabilities").path("drop").forEach(capability -> dropped.add(capability.asText()));
                    assertThat(dropped).as("%s: capabilities dropped", where).contains("ALL");
                    assertThat(own.path("capabilities").has("add")).as("%s: capabilities added", where).isFalse();
                    // a container's own settings override its pod's
                    assertThat((own.has("runAsNonRoot") ? own : context).path("runAsNonRoot").asBoolean())
                            .as("%s: runAsNonRoot", where).isTrue();
                    assertThat((own.has("runAsUser") ? own : context).path("runAsUser").asInt()).as("%s: user", where)
                            .isPositive();
                    List<String> writable = new ArrayList<>();
                    container.path("volumeMounts").forEach(mount -> {
                        if (scratch.contains(mount.path("name").asText())) {
                            writable.add(mount.path("mountPath").asText());
                        }
                    });
                    assertThat(writable).as("%s: the emptyDir folders", where).contains("/tmp");
                    if (kind.equals("FlinkDeployment")) {
                        assertThat(writable).as("%s: Flink's log file, which its Web UI shows", where)
                                .contains("/opt/flink/log");
                    }
                }
            }
        }
        assertThat(kinds).as("the pods of profile '%s'", profile).contains("Deployment", "FlinkDeployment");
    }

    /**
     * The API pods take connections on their own two ports only: the API's from apiFrom (any pod of the cluster, by
     * default), the management port (metrics, probes, the jobs jar) from Prometheus and, when the API runs commands,
     * from the Flink Kubernetes Operator's pods, which fetch the jobs jar.
     */
    @Test
    void theApiPodsTakeConnectionsOnTheirTwoPortsFromTheirOwnPeersOnly() throws Exception {
        JsonNode values = YAML.readTree(CHART.resolve("values.yaml").toFile());
        int apiPort = values.path("api").path("port").asInt();
        int metricsPort = values.path("api").path("metricsPort").asInt();
        JsonNode defaults = values.path("networkPolicy");
        List<JsonNode> resources = render("");
        JsonNode policy = only(resources, "NetworkPolicy");
        JsonNode selected = policy.path("spec").path("podSelector").path("matchLabels");
        assertThat(selected.size()).as("the pods' labels it selects").isPositive();
        for (JsonNode resource : resources) {
            if (!"Deployment".equals(resource.path("kind").asText())) {
                continue;
            }
            Map<String, String> labels = YAML.convertValue(
                    resource.path("spec").path("template").path("metadata").path("labels"), LABELS);
            assertThat(labels.entrySet().containsAll(YAML.convertValue(selected, LABELS).entrySet()))
                    .as("%s's pods selected", resource.path("metadata").path("name").asText())
                    .isEqualTo("api".equals(labels.get("app.kubernetes.io/component")));
        }
        assertThat(policy.path("spec").path("policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        Map<Integer, JsonNode> peers = peersByPort(policy);
        assertThat(peers.keySet()).containsExactlyInAnyOrder(apiPort, metricsPort);
        assertThat(peers.get(apiPort)).as("the API port's peers").isEqualTo(defaults.path("apiFrom"));
        JsonNode operator = YAML.readTree("""
                namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: default}}
                podSelector: {matchLabels: {app.kubernetes.io/name: flink-kubernetes-operator}}
                """);
        assertThat(peers.get(metricsPort)).as("the management port's peers")
                .containsExactlyInAnyOrder(defaults.path("prometheus"), operator);

        JsonNode withoutCommands = peersByPort(only(render("", "--set", "commands.enabled=false"), "NetworkPolicy"))
                .get(metricsPort);
        assertThat(withoutCommands).as("the management port's peers without commands")
                .containsExactly(defaults.path("prometheus"));
        JsonNode elsewhere = peersByPort(only(render("", "--set", "networkPolicy.flinkOperator.namespace=flink-operator",
                "--set", "networkPolicy.managementFrom[0].ipBlock.cidr=10.0.0.0/16"), "NetworkPolicy")).get(metricsPort);
        assertThat(elsewhere.findValuesAsText("kubernetes.io/metadata.name")).containsExactlyInAnyOrder("monitoring",
                "flink-operator");
        assertThat(elsewhere.findValuesAsText("cidr")).containsExactly("10.0.0.0/16");
        assertThat(render("", "--set", "networkPolicy.enabled=false"))
                .extracting(r -> r.path("kind").asText()).doesNotContain("NetworkPolicy");
        assertThat(failure("--set-json", "networkPolicy.apiFrom=[]")).as("no peer: anyone").contains("/networkPolicy/apiFrom");
    }

    /** Each ingress rule of {@code policy} by its one port: the peers it lets in. */
    private static Map<Integer, JsonNode> peersByPort(JsonNode policy) {
        Map<Integer, JsonNode> peers = new java.util.HashMap<>();
        for (JsonNode rule : policy.path("spec").path("ingress")) {
            assertThat(rule.path("from").size()).as("a rule's peers (none: anyone)").isPositive();
            assertThat(rule.path("ports").size()).as("a rule's ports (none: every port)").isEqualTo(1);
            assertThat(peers.put(rule.path("ports").get(0).path("port").asInt(), rule.path("from"))).isNull();
        }
        return peers;
    }

    private static JsonNode only(List<JsonNode> resources, String kind) {
        List<JsonNode> found = resources.stream().filter(r -> kind.equals(r.path("kind").asText())).toList();
        assertThat(found).as("the %ss", kind).hasSize(1);
        return found.get(0);
    }

    /**
     * /metrics asks for a token the API alone is given, by reference to a Secret: the chart's, a random one (made once:
     * an upgrade finds it in the cluster and keeps it), or one of yours.
     */
    @Test
    void theApisMetricsAskForATokenOfASecretTheApiAloneReads() throws Exception {
        List<JsonNode> resources = render("");
        JsonNode secret = secret(resources, "-api-metrics");
        String name = secret.path("metadata").path("name").asText();
        String token = new String(java.util.Base64.getDecoder().decode(secret.path("data").path("token").asText()),
                StandardCharsets.UTF_8);
        JsonNode reference = env(apiContainer(resources), "VOLUMIZER_METRICS_TOKEN").path("valueFrom").path("secretKeyRef");

        assertThat(token).as("the generated token").hasSizeGreaterThanOrEqualTo(32);
        assertThat(reference.path("name").asText()).isEqualTo(name);
        assertThat(reference.path("key").asText()).isEqualTo("token");
        List<JsonNode> others = resources.stream().filter(r -> !"api".equals(r.path("metadata").path("labels")
                .path("app.kubernetes.io/component").asText())).flatMap(r -> r.findParents("containers").stream()).toList();
        assertThat(others).as("the other pods").isNotEmpty()
                .allSatisfy(pod -> assertThat(pod.toString()).doesNotContain("VOLUMIZER_METRICS_TOKEN", name));
        JsonNode again = secret(render(""), "-api-metrics");
        assertThat(again.path("data").path("token").asText()).as("a token of its own for each installation")
                .isNotEqualTo(secret.path("data").path("token").asText());

        List<JsonNode> yours = render("", "--set", "api.metricsTokenSecret=volumizer-metrics");
        assertThat(yours).extracting(r -> r.path("metadata").path("name").asText()).doesNotContain(name);
        assertThat(env(apiContainer(yours), "VOLUMIZER_METRICS_TOKEN").path("valueFrom").path("secretKeyRef")
                .path("name").asText()).isEqualTo("volumizer-metrics");
    }

    /** Every replica seals cursors with one key, from a Secret the chart makes once or the operator gives. */
    @Test
    void theReplicasShareTheKeyTheirCursorsAreSealedWith() throws Exception {
        List<JsonNode> resources = render("");
        JsonNode secret = secret(resources, "-api-cursors");
        assertThat(Base64.getDecoder().decode(secret.path("data").path("key").asText())).hasSizeGreaterThanOrEqualTo(32);
        JsonNode reference = env(apiContainer(resources), "VOLUMIZER_CURSOR_KEY").path("valueFrom").path("secretKeyRef");
        assertThat(reference.path("name").asText()).isEqualTo(secret.path("metadata").path("name").asText());
        assertThat(reference.path("key").asText()).isEqualTo("key");

        List<JsonNode> yours = render("", "--set", "api.cursorKeySecret=volumizer-cursors");
        assertThat(yours.stream().map(r -> r.path("metadata").path("name").asText()).toList())
                .noneMatch(name -> name.endsWith("-api-cursors"));
        assertThat(env(apiContainer(yours), "VOLUMIZER_CURSOR_KEY").path("valueFrom").path("secretKeyRef")
                .path("name").asText()).isEqualTo("volumizer-cursors");
    }

    private static JsonNode secret(List<JsonNode> resources, String suffix) {
        return resources.stream().filter(r -> "Secret".equals(r.path("kind").asText())
                && r.path("metadata").path("name").asText().endsWith(suffix)).findFirst().orElseThrow();
    }

    /**
     * The key set that every token's signature is checked against comes from the issuer over https, unless its values
     * say, on purpose, that it is an issuer inside the cluster.
     */
    @Test
    void theIssuerIsReachedOverHttpsUnlessAllowedOtherwise() throws Exception {
        JsonNode oidc = YAML.readTree(CHART.resolve("values.yaml").toFile()).path("api").path("oidc");
        assertThat(oidc.path("issuer").asText()).startsWith("https://");
        assertThat(oidc.path("allowInsecureIssuer").asBoolean()).isFalse();
        String http = "http://keycloak.identity.svc:8080/realms/volumizer";

        assertThat(failure("--set", "api.oidc.issuer=" + http)).contains("/api/oidc/issuer", "https://");
        assertThat(failure("--set", "api.oidc.jwksUrl=" + http + "/protocol/openid-connect/certs"))
                .contains("/api/oidc/jwksUrl", "https://");
        assertThat(apiArgs(render("", "--set", "api.oidc.allowInsecureIssuer=true", "--set", "api.oidc.issuer=" + http)))
                .containsSequence("--oidc-issuer", http);
    }

    /**
     * Behind the ingress, the API is told its proxies (their addresses or CIDRs), without which every client would be
     * counted as the ingress controller's address; the schema refuses an ingress without them.
     */
    @Test
    void behindTheIngressTheApiIsToldItsTrustedProxies() throws Exception {
        assertThat(failure("--set", "api.ingress.enabled=true")).contains("/api/trustedProxies");
        assertThat(failure("--set", "api.trustedProxies={proxy.example.com}")).contains("/api/trustedProxies");
        assertThat(apiArgs(render(""))).doesNotContain("--trusted-proxies");

        List<JsonNode> resources = render("", "--set", "api.ingress.enabled=true", "--set",
                "api.ingress.host=volumizer.example.com", "--set", "api.trustedProxies={10.0.0.0/8,192.168.1.7}");
        assertThat(apiArgs(resources)).containsSequence("--trusted-proxies", "10.0.0.0/8,192.168.1.7");
        JsonNode rule = only(resources, "Ingress").path("spec").path("rules").get(0);
        JsonNode backend = rule.path("http").path("paths").get(0).path("backend").path("service");
        JsonNode service = resources.stream().filter(r -> "Service".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("name").asText().equals(backend.path("name").asText()))
                .findFirst().orElseThrow();
        assertThat(rule.path("host").asText()).isEqualTo("volumizer.example.com");
        assertThat(service.path("spec").path("ports").findValuesAsText("name")).containsExactly(
                backend.path("port").path("name").asText());
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo("http");

        List<String> addresses = apiArgs(render("", "--set", "api.ingress.enabled=true", "--set",
                "api.trustedProxies={10.1.0.7,10.1.0.8}"));
        assertThat(Options.parse(new ApiOptions(), addresses.toArray(String[]::new))).as("the API's options, parsed")
                .isNotNull();
    }

    private static JsonNode apiContainer(List<JsonNode> resources) {
        return resources.stream().filter(r -> "Deployment".equals(r.path("kind").asText()))
                .filter(r -> r.path("metadata").path("labels").path("app.kubernetes.io/component").asText().equals("api"))
                .findFirst().orElseThrow().path("spec").path("template").path("spec").path("containers").get(0);
    }

    @Test
    void valuesTheSchemaRefusesAreNamed() throws Exception {
        assertThat(failure("--set", "steps.import.parallelism=two")).contains("parallelism");
        assertThat(failure("--set", "api.replica=3")).contains("replica");
        assertThat(failure("--set", "steps.reindexing.enabled=true")).contains("reindexing");
        assertThat(failure("--set", "steps.import.state=paused")).contains("state");
    }

    /**
     * The values a plan writes (bin/volumizer plan --helm-values, from the committed calibration) hand each step it
     * sizes to the operator's autoscaler with the plan's parallelism and bounds, and validate; every autoscaler key the
     * chart renders is one the operator knows, with a value of that option's type (its generated list of options,
     * release 1.15.0, vendored); a step without the autoscaler renders none of its keys.
     */
    @Test
    void aPlansValuesLetTheOperatorsAutoscalerSizeEachStep(@TempDir Path folder) throws Exception {
        Path values = folder.resolve("plan.yaml");
        int exit = new CommandLine(new PlanCommand()).setOut(new PrintWriter(Writer.nullWriter())).execute(
                "--documents", "3e9", "--import-rate", "15000", "--reindex-hours", "72",
                "--topology", "../topologies/11b.yaml", "--calibration", "../benchmarks/results/calibration.json",
                "--node-types", "../conf/node-types.yaml", "--helm-values", values.toString());
        assertThat(exit).as("bin/volumizer plan --helm-values").isZero();
        JsonNode plan = YAML.readTree(values.toFile()).path("steps");
        assertThat(plan.fieldNames()).toIterable().containsExactly("import-and-index", "import", "index", "file-text");

        Result rendered = helm("template", "", "-f", values.toString());
        assertThat(rendered.exitCode).as(rendered.err).isZero();
        assertValidates(rendered.out, "a plan's values");
        Map<String, String> optionTypes = autoscalerOptionTypes();
        List<String> autoscaled = new ArrayList<>();
        for (JsonNode resource : resources(rendered.out)) {
            String component = resource.path("metadata").path("labels").path("app.kubernetes.io/component").asText();
            if (!"FlinkDeployment".equals(resource.path("kind").asText()) || !plan.has(component)) {
                continue;
            }
            JsonNode configuration = resource.path("spec").path("flinkConfiguration");
            JsonNode bounds = plan.path(component).path("autoscaler");
            assertThat(resource.path("spec").path("job").path("parallelism").asInt()).as(component)
                    .isEqualTo(plan.path(component).path("parallelism").asInt());
            assertThat(configuration.path("job.autoscaler.enabled").asText()).as(component).isEqualTo("true");
            assertThat(configuration.path("job.autoscaler.vertex.min-parallelism").asInt())
                    .isEqualTo(bounds.path("minParallelism").asInt());
            assertThat(configuration.path("job.autoscaler.vertex.max-parallelism").asInt())
                    .isEqualTo(bounds.path("maxParallelism").asInt())
                    .isGreaterThan(plan.path(component).path("parallelism").asInt());
            assertThat(configuration.path("jobmanager.scheduler").asText()).isEqualTo("adaptive");
            configuration.fieldNames().forEachRemaining(key -> {
                if (key.startsWith("job.autoscaler.")) {
                    assertThat(optionTypes).as("the operator's autoscaler options").containsKey(key);
                    assertOfType(key, configuration.path(key).asText(), optionTypes.get(key));
                }
            });
            autoscaled.add(component);
        }
        assertThat(autoscaled).containsExactlyInAnyOrder("import", "index", "file-text");
        assertThat(render("").toString()).as("the defaults: no step autoscaled").doesNotContain("job.autoscaler");
        assertThat(failure("-f", values.toString(), "--set", "steps.import.autoscaler.minParallelism=99"))
                .contains("steps.import.autoscaler: minParallelism 99 is above maxParallelism");
    }

    /** The operator's autoscaler options and their types, from its generated configuration table. */
    private static Map<String, String> autoscalerOptionTypes() throws Exception {
        var resource = HelmChartTest.class.getResource("/flink-kubernetes-operator/auto_scaler_configuration.html");
        assertThat(resource).as("the vendored table of autoscaler options").isNotNull();
        String table = Files.readString(Path.of(resource.toURI()));
        Map<String, String> types = new java.util.HashMap<>();
        Matcher row = Pattern.compile("<h5>([^<]+)</h5></td>\\s*<td[^>]*>[^<]*</td>\\s*<td>(?:<p>)?([^<]+)<")
                .matcher(table);
        while (row.find()) {
            types.put(row.group(1), row.group(2));
        }
        assertThat(types).as("options read from the table").hasSize(41);
        return types;
    }

    private static void assertOfType(String key, String value, String type) {
        switch (type) {
            case "Boolean" -> assertThat(value).as(key).isIn("true", "false");
            case "Integer" -> assertThat(Integer.parseInt(value)).as(key).isNotNegative();
            case "Double" -> assertThat(Double.parseDouble(value)).as(key).isBetween(0.0, 1.0);
            case "Duration" -> assertThat(TimeUtils.parseDuration(value)).as(key).isPositive();
            case "Enum" -> assertThat(value).as(key).matches("[A-Z_]+");
            default -> throw new AssertionError(key + ": the test reads no option of type " + type);
        }
    }

    static List<JsonNode> render(String profile, String... more) throws Exception {
        Result result = helm("template", profile, more);
        assertThat(result.exitCode).as("helm template %s: %s", profile, result.err).isZero();
        return resources(result.out);
    }

    /** The resources of rendered manifests. */
    private static List<JsonNode> resources(String manifests) throws IOException {
        List<JsonNode> resources = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(manifests)) {
            for (var documents = YAML.readValues(parser, JsonNode.class); documents.hasNext(); ) {
                JsonNode document = documents.next();
                if (document instanceof ObjectNode) {
                    resources.add(document);
                }
            }
        }
        return resources;
    }

    private static String failure(String... arguments) throws Exception {
        Result result = helm("template", "", arguments);
        assertThat(result.exitCode).as("helm template %s should fail", List.of(arguments)).isNotZero();
        return result.err;
    }

    private static Path schemaFolder;

    /** Strict schemas for kubeconform, made once per run by scripts/kubernetes_schemas.py. */
    private static synchronized Path schemas() throws Exception {
        if (schemaFolder == null) {
            Path folder = Path.of("target/kubernetes-schemas");
            List<String> command = new ArrayList<>(List.of("python3", "scripts/kubernetes_schemas.py", folder.toString(),
                    tool("volumizer.kubernetes.swagger")));
            for (String kind : List.of("flinkdeployments", "flinksessionjobs")) {
                command.add(crd(kind).toString());
            }
            Result made = run(command);
            assertThat(made.exitCode).as(made.err).isZero();
            schemaFolder = folder;
        }
        return schemaFolder;
    }

    /**
     * The operator's CRD of {@code kind} (its plural), vendored from the operator release the chart is for (see
     * src/test/resources/flink-kubernetes-operator/README.md): the operator-api jar that resolves here is older.
     */
    private static Path crd(String kind) throws Exception {
        String file = "/flink-kubernetes-operator/" + kind + ".flink.apache.org-v1.yml";
        var resource = HelmChartTest.class.getResource(file);
        assertThat(resource).as("the vendored %s CRD", kind).isNotNull();
        return Path.of(resource.toURI());
    }

    /** The flinkVersion values the FlinkDeployment CRD accepts in {@code apiVersion} (group/version). */
    private static List<String> crdFlinkVersions(String apiVersion) throws Exception {
        JsonNode crd = YAML.readTree(crd("flinkdeployments").toFile());
        List<String> versions = new ArrayList<>();
        for (JsonNode version : crd.path("spec").path("versions")) {
            String served = crd.path("spec").path("group").asText() + "/" + version.path("name").asText();
            if (version.path("served").asBoolean() && served.equals(apiVersion)) {
                version.path("schema").path("openAPIV3Schema").path("properties").path("spec").path("properties")
                        .path("flinkVersion").path("enum").forEach(value -> versions.add(value.asText()));
            }
        }
        return versions;
    }

    /** The build's Flink version ({@code -Dvolumizer.flink.version}, helm/pom.xml gives it) as the operator names it. */
    private static String buildFlinkVersion() {
        String flink = System.getProperty("volumizer.flink.version");
        assertThat(flink).as("-Dvolumizer.flink.version (helm/pom.xml gives it)").matches("\\d+\\.\\d+\\..*");
        String[] version = flink.split("\\.");
        return "v" + version[0] + "_" + version[1];
    }

    /**
     * helm {@code verb} on the chart with a values {@code profile} (none if empty), for the Kubernetes version the
     * resources are validated against ({@code -Dvolumizer.kubernetes.version}): a helm built from source assumes
     * an old one.
     */
    private static Result helm(String verb, String profile, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(tool("volumizer.helm"), verb));
        if (verb.equals("template")) {
            command.add("volumizer");
        }
        command.addAll(List.of(CHART.toString(), "--kube-version", tool("volumizer.kubernetes.version")));
        if (!profile.isEmpty()) {
            command.addAll(List.of("-f", CHART.resolve(profile).toString()));
        }
        command.addAll(List.of(more));
        return run(command);
    }

    /** What bin/volumizer test provides (a tool's path, a version), by its system property. */
    private static String tool(String property) {
        String path = System.getProperty(property);
        assertThat(path).as("-D%s (bin/volumizer test provides it)", property).isNotBlank();
        return path;
    }

    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(List<String> command) throws Exception {
        Path err = Files.createTempFile("helm", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("%s finished", command).isTrue();
            return new Result(process.exitValue(), out, Files.readString(err));
        } finally {
            Files.delete(err);
        }
    }
}
