package io.volumizer.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.CsvImportOptions;
import io.volumizer.options.steps.GenerateOptions;
import io.volumizer.options.steps.ImportAndIndexOptions;
import io.volumizer.options.steps.ImportOptions;
import io.volumizer.options.steps.IndexOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import picocli.CommandLine.Option;

class OptionsTest {

    /** What a step cannot run without: the commands' repository, id and action; the CSV import's files. */
    private static List<String> required(Step step) {
        return switch (step) {
            case REINDEX -> List.of("--repository", "bank", "--command-id", "reindex-1");
            case BULK_UPDATE -> List.of("--repository", "bank", "--command-id", "bulk-1", "--action", "setProperties",
                    "--filter", "type=Statement", "--filter", "state=TX", "--properties", "{\"reviewed\":\"yes\"}");
            case SET_ACL -> List.of("--repository", "bank", "--command-id", "acl-1", "--document", "st-TX", "--acl",
                    "{\"aces\": [{\"principal\": \"branch-TX\", \"permission\": \"WRITE\", \"granted\": true}]}");
            case IMPORT_CSV -> List.of("--repository", "bank", "--path", "/data/bank.csv");
            default -> List.of();
        };
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void argumentsDerivedFromAStepsOptionsParseBackIntoTheSameOptions(Step step) {
        List<String> arguments = step.arguments(required(step));

        assertThat(arguments).isNotEmpty().doesNotContain("--help", "-h", "--version");
        assertThat(Options.arguments(Options.parse(step.newOptions(), arguments.toArray(String[]::new))))
                .isEqualTo(arguments);
    }

    @Test
    void everyOptionOfAMixinAndOfTheStepIsWrittenWithItsValue() {
        ImportOptions options = (ImportOptions) Step.IMPORT.parse(List.of("--group-id", "g1", "--mongodb-database", "db1",
                "--parent-wait-margin", "PT5S", "--blob-store", "/tmp/blobs", "--bootstrap-servers", "127.0.0.1:9092"));

        List<String> arguments = Options.arguments(options);

        assertThat(arguments).containsSequence("--group-id", "g1").containsSequence("--mongodb-database", "db1")
                .containsSequence("--parent-wait-margin", "PT5S").containsSequence("--blob-store", "/tmp/blobs")
                .containsSequence("--bootstrap-servers", "127.0.0.1:9092")
                .doesNotContain("--s3-endpoint"); // no value, no argument
        assertThat(options.settings.parentWaitMargin).isEqualTo(Duration.ofSeconds(5));
    }

    /** An option under a new name and its old one: what is written is the new name, whichever was given. */
    static final class Renamed {
        @Option(names = {"--new-name", "--the-old-longer-name"})
        String value;
    }

    @Test
    void anOptionIsWrittenByItsFirstDeclaredName() {
        assertThat(Options.arguments(Options.parse(new Renamed(), "--the-old-longer-name", "v")))
                .containsExactly("--new-name", "v");
    }

    @Test
    void aStepsArgumentsLetALaterOptionReplaceAnEarlierOne() {
        ImportOptions options = (ImportOptions) Step.IMPORT.parse(List.of("--mongodb-database", "base",
                "--group-id", "g", "--mongodb-database", "override"));

        assertThat(options.pipeline.mongodb.database).isEqualTo("override");
    }

    @Test
    void aJobRefusesTheSameOptionTwice() {
        assertThatThrownBy(() -> Options.parse(new ImportOptions(), "--group-id", "a", "--group-id", "b"))
                .isInstanceOf(Options.InvalidOptionsException.class).hasMessageContaining("--group-id");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--statements-per-account|5000|--statements-per-account must be within 0..1200, was 5000",
        "--mean-accounts|4|--mean-accounts must be within 1..3, was 4.0",
        "--customers|0|--customers must be at least 1, was 0",
        "--repository|Bank|--repository must be 1-64 lower-case letters, digits, '-' or '_', was 'Bank'",
        "--checkpoint-interval|PT0S|--checkpoint-interval must be positive, was PT0S",
        "--index-prefix|Volumizer-|--index-prefix must be lower-case letters, digits, '-' or '_', starting with a letter or digit, was 'Volumizer-'",
        "--index-prefix|-volumizer|--index-prefix must be lower-case letters, digits, '-' or '_', starting with a letter or digit, was '-volumizer'",
        "--topics-of|Bank|--topics-of must be 1-64 lower-case letters, digits, '-' or '_', was 'Bank'",
        "--topic-min-insync-replicas|2|--topic-min-insync-replicas must be from 1 to --topic-replication-factor, was 2",
        "--topic-retention|PT30S|--topic-retention must be at least a minute, was PT30S"})
    void aRefusalIsOneLineNamingTheFlag(String option, String value, String reason) {
        assertThatThrownBy(() -> Options.parse(new GenerateOptions(), option, value))
                .isInstanceOfSatisfying(Options.InvalidOptionsException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.usage()).contains("Usage: generate", "--customers");
                });
    }

    @Test
    void anUnknownOptionIsRefusedWithTheStepsUsage() {
        assertThatThrownBy(() -> Step.IMPORT_AND_INDEX.parse(List.of("--repository", "x")))
                .isInstanceOfSatisfying(Options.InvalidOptionsException.class, e -> {
                    assertThat(e.reason()).contains("Unknown option", "--repository").doesNotContain("\n");
                    assertThat(e.usage()).contains("Usage: import-and-index");
                });
    }

    @Test
    void importAndIndexHasNoConsumerGroupOfAnIndexTopicToIgnore() {
        assertThatThrownBy(() -> Options.parse(new ImportAndIndexOptions(), "--index-group-id", "g"))
                .isInstanceOf(Options.InvalidOptionsException.class).hasMessageContaining("--index-group-id");
    }

    @Test
    void aSecretTakenFromTheEnvironmentIsNeverWrittenIntoAJobsArguments() {
        List<String> defaults = Step.IMPORT.arguments(List.of());
        assertThat(defaults).doesNotContain("--mongodb-uri");
        List<String> given = Step.IMPORT.arguments(List.of("--mongodb-uri", "mongodb://db.example:27017",
                "--kafka-property", "security.protocol=SASL_SSL"));
        assertThat(given).containsSequence("--mongodb-uri", "mongodb://db.example:27017")
                .containsSequence("--kafka-property", "security.protocol=SASL_SSL");
    }

    @Test
    void aCsvImportReadsWithOneReaderUnlessAskedForMore() {
        List<String> file = List.of("--repository", "bank", "--path", "/data/bank.csv");
        assertThat(((CsvImportOptions) Step.IMPORT_CSV.parse(file)).readers).isEqualTo(1);
        List<String> three = new ArrayList<>(file);
        three.addAll(List.of("--readers", "3"));
        assertThat(((CsvImportOptions) Step.IMPORT_CSV.parse(three)).readers).isEqualTo(3);
        List<String> none = new ArrayList<>(file);
        none.addAll(List.of("--readers", "0"));
        assertThatThrownBy(() -> Step.IMPORT_CSV.parse(none)).hasMessageContaining("--readers must be at least 1");
    }

    @Test
    void aBulkCommandIsRefusedBeforeItRunsForAFilterOrAPropertyItCannotUse() {
        assertThatThrownBy(() -> Step.BULK_UPDATE.parse(List.of("--repository", "bank", "--command-id", "b",
                "--action", "delete", "--filter", "colour=red"))).hasMessageContaining("unknown filter 'colour'");
        assertThatThrownBy(() -> Step.BULK_UPDATE.parse(List.of("--repository", "bank", "--command-id", "b",
                "--action", "setProperties", "--properties", "{\"a.b\": 1}"))).hasMessageContaining("property names");
        assertThatThrownBy(() -> Step.BULK_UPDATE.parse(List.of("--repository", "bank", "--command-id", "b",
                "--action", "setProperties"))).hasMessageContaining("--properties must name a property");
        assertThatThrownBy(() -> Step.REINDEX.parse(List.of("--repository", "Bank!", "--command-id", "r")))
                .hasMessageContaining("--repository must be");
    }

    @Test
    void aBulkCommandCannotChangeAPropertyTheTopologyRoutesBy() {
        String published = "--topology=" + Path.of("..", "topologies", "11b.yaml");
        for (String property : List.of("state", "customerNumber")) {
            assertThatThrownBy(() -> Step.BULK_UPDATE.parse(List.of(published, "--repository", "us-west", "--command-id",
                    "b", "--action", "setProperties", "--properties", "{\"" + property + "\": \"NY\"}")))
                    .hasMessageContaining("--properties: " + property + " cannot be changed");
        }
        assertThat(Step.BULK_UPDATE.parse(List.of(published, "--repository", "us-west", "--command-id", "b", "--action",
                "setProperties", "--properties", "{\"reviewed\": true}"))).isNotNull();
    }

    @Test
    void aRepositorysTopicsAndConsumerGroupsAreNamedByOneRule() {
        assertThat(TopicNames.of("demo").all())
                .containsExactly("volumizer.demo.documents", "volumizer.demo.imported", "volumizer.demo.deadletter",
                        "volumizer.demo.control");
        assertThat(TopicNames.of(null)).isEqualTo(TopicNames.DEFAULT);
        assertThat(TopicNames.DEFAULT.all())
                .containsExactly("volumizer.documents", "volumizer.imported", "volumizer.deadletter", "volumizer.control");
        assertThat(Step.IMPORT.consumerGroup("demo")).isEqualTo("volumizer-demo-import");
        assertThat(Step.IMPORT_AND_INDEX.consumerGroup("demo")).as("either continues where the other stopped")
                .isEqualTo("volumizer-demo-import");
        assertThat(Step.INDEX.consumerGroup("demo")).isEqualTo("volumizer-demo-index");
        assertThat(Step.IMPORT.consumerGroup(null)).isEqualTo("volumizer-import");
        assertThat(ConsumerGroups.ephemeral("count")).startsWith("volumizer-count-")
                .isNotEqualTo(ConsumerGroups.ephemeral("count"));
        assertThatThrownBy(() -> Step.GENERATE.consumerGroup("demo")).hasMessageContaining("generate reads no topic");
        assertThatThrownBy(() -> TopicNames.of("a.b")).hasMessageContaining("was 'a.b'");
        assertThatThrownBy(() -> Step.INDEX.consumerGroup("A")).hasMessageContaining("was 'A'");
    }

    @ParameterizedTest
    @CsvSource({"import,volumizer-demo-import", "index,volumizer-demo-index", "import-and-index,volumizer-demo-import"})
    void topicsOfNamesEveryTopicAndTheStepsConsumerGroup(String id, String group) {
        Step step = Step.named(id);
        PipelineStepOptions options = (PipelineStepOptions) step.parse(List.of("--topics-of", "demo"));

        assertThat(List.of(options.pipeline.documentsTopic(), options.pipeline.importedTopic(),
                options.pipeline.deadletterTopic(), options.pipeline.controlTopic())).isEqualTo(TopicNames.of("demo").all());
        assertThat(options.instance()).isEqualTo(group);
        assertThat(step.runName(options)).isEqualTo(step.jobName() + " " + group);
    }

    @Test
    void withoutTopicsOfTheTopicsAndGroupsAreTheDefaults() {
        IndexOptions options = (IndexOptions) Step.INDEX.parse(List.of());

        assertThat(List.of(options.pipeline.documentsTopic(), options.pipeline.importedTopic(),
                options.pipeline.deadletterTopic(), options.pipeline.controlTopic())).isEqualTo(TopicNames.DEFAULT.all());
        assertThat(options.groupId()).isEqualTo("volumizer-index");
    }

    @Test
    void anIndexJobOfTheFilesTextAloneReadsInAGroupOfItsOwnAndOnlyTheIndexJobReadsItApart() {
        IndexOptions text = (IndexOptions) Step.INDEX.parse(List.of("--topics-of", "demo", "--file-text", "only"));
        IndexOptions metadata = (IndexOptions) Step.INDEX.parse(List.of("--topics-of", "demo", "--file-text", "none"));

        assertThat(text.groupId()).isEqualTo("volumizer-demo-file-text");
        assertThat(metadata.groupId()).isEqualTo("volumizer-demo-index");
        assertThat(((IndexOptions) Step.INDEX.parse(List.of("--file-text", "only", "--index-group-id", "mine"))).groupId())
                .isEqualTo("mine");
        for (Step oneJob : List.of(Step.IMPORT_AND_INDEX, Step.REINDEX)) {
            List<String> args = new java.util.ArrayList<>(List.of("--file-text", "none"));
            if (oneJob == Step.REINDEX) {
                args.addAll(List.of("--repository", "bank", "--command-id", "r"));
            }
            assertThatThrownBy(() -> oneJob.parse(args)).hasMessageContaining("--file-text none is the index job's");
        }
    }

    @Test
    void aTopicOrAGroupOptionWinsOverTopicsOf() {
        ImportOptions options = (ImportOptions) Step.IMPORT.parse(List.of("--topics-of", "demo",
                "--imported-topic", "mine.imported", "--group-id", "mine"));

        assertThat(options.pipeline.importedTopic()).isEqualTo("mine.imported");
        assertThat(options.pipeline.documentsTopic()).isEqualTo("volumizer.demo.documents");
        assertThat(options.groupId()).isEqualTo("mine");
    }

    @Test
    void aJobIsGivenTheRepositoryNotTheTopicsItDerives() {
        List<String> arguments = Step.IMPORT_AND_INDEX.arguments(List.of("--topics-of", "demo"));

        assertThat(arguments).containsSequence("--topics-of", "demo")
                .doesNotContain("--documents-topic", "--imported-topic", "--deadletter-topic", "--group-id");
        // A later --topics-of replaces the repository, and with it every name derived from it.
        PipelineOptions replaced = Options.parseWithOverrides(new PipelineOptions(),
                Options.with(((PipelineStepOptions) Step.IMPORT_AND_INDEX.parse(arguments)).pipeline, "--topics-of", "other"));
        assertThat(replaced.importedTopic()).isEqualTo("volumizer.other.imported");
    }

    @Test
    void theTopicsMustDiffer() {
        assertThatThrownBy(() -> Step.IMPORT.parse(List.of("--topics-of", "demo", "--imported-topic", "volumizer.demo.documents")))
                .hasMessageContaining("must differ");
    }

    @Test
    void stepsAreFoundByTheirNameAndAnUnknownOneNamesThemAll() {
        assertThat(Step.named("import-and-index")).isEqualTo(Step.IMPORT_AND_INDEX);
        assertThat(Step.IMPORT.jobName()).isEqualTo("volumizer-import");
        assertThatThrownBy(() -> Step.named("imprt")).hasMessage(
                "unknown step 'imprt'; steps: [generate, import, index, import-and-index, smoke, reindex, bulk-update, set-acl, "
                        + "import-csv]");
    }
}
