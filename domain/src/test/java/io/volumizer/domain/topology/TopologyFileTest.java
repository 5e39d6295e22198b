package io.volumizer.domain.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.mongodb.MongoLocation;

class TopologyFileTest {

    static final Path TOPOLOGIES = Path.of("..", "topologies");
    /** Routing over repositories east, archives and plain: statements to archives, the root to plain, the rest to east. */
    private static final String EAST_ARCHIVES_PLAIN_ROUTING = """
            routing:
              - when: {type: Statement}
                to: archives
              - when: {type: Root}
                to: plain
              - to: east
            """;

    @Test
    void theShippedTopologiesLoad() {
        Topology published = TopologyFile.load(TOPOLOGIES.resolve("11b.yaml"));
        assertThat(published.repositories()).containsExactly("us-east", "us-west", "archives");
        assertThat(published.rules()).extracting(RoutingRule::repository).containsExactly("archives", "us-west", "us-east");
        assertThat(published.rules().get(0).minAgeMonths()).isEqualTo(6);
        assertThat(published.databases()).as("the archive's own MongoDB").containsOnlyKeys("archives");
        assertThat(published.aliases()).containsExactly(Map.entry("archives", "statements-archive"));
        assertThat(published.routingProperties()).containsOnlyKeys("state", "customerNumber");
        assertThat(published.routingProperties().get("state")).contains("11b.yaml:" + published.rules().get(1).line());

        Topology single = TopologyFile.load(TOPOLOGIES.resolve("single.yaml"));
        Topology builtIn = Topology.single("bank");
        assertThat(single.repositories()).isEqualTo(builtIn.repositories());
        assertThat(single.rules()).extracting(RoutingRule::isUnconditional, RoutingRule::repository)
                .isEqualTo(builtIn.rules().stream().map(rule -> org.assertj.core.groups.Tuple.tuple(
                        rule.isUnconditional(), rule.repository())).toList());
    }

    @Test
    void aValueAndAListAreBothTaken() {
        Topology topology = parse("""
                repositories:
                  a:
                  b: {}
                routing:
                  - when: {type: [Statement, Account], property: state, in: CA}
                    to: b
                  - to: a
                """);
        RoutingRule rule = topology.rules().get(0);
        assertThat(rule.types()).containsExactlyInAnyOrder("Statement", "Account");
        assertThat(rule.values()).containsExactly("CA");
        assertThat(rule.line()).isEqualTo(5);
    }

    @Test
    void syntaxErrorsNameTheirLine() {
        assertError("repositories:\n  a: {}\nrouting: [\n", 4, "", "not valid YAML");
        assertError("", 0, "", "empty");
        assertError("- a\n", 1, "", "expected a mapping");
    }

    @Test
    void unknownAndRepeatedKeysAreRefused() {
        assertError("""
                repositories: {a: {}}
                routing: [{to: a}]
                sharding: 3
                """, 3, "sharding", "unknown key (expected one of: repositories, routing)");
        assertError("""
                repositories: {a: {}}
                routing:
                  - to: a
                    from: b
                """, 4, "routing[0].from", "unknown key (expected one of: to, when)");
        assertError(aOrBWhen("{kind: Statement}"), 3, "routing[0].when.kind", "unknown key (expected one of: in, minAge, property, type)");
        assertError("""
                repositories:
                  a: {shards: 3}
                routing: [{to: a}]
                """, 2, "repositories.a.shards", "unknown key (expected one of: blobStore, index, mongodb, profile)");
        assertError("""
                repositories:
                  a: {}
                  a: {}
                routing: [{to: a}]
                """, 3, "repositories.a", "given twice");
    }

    @Test
    void missingPartsAreNamed() {
        assertError("repositories: {a: {}}\n", 1, "routing", "missing");
        assertError("routing: [{to: a}]\n", 1, "repositories", "missing");
        assertError("repositories: {}\nrouting: [{to: a}]\n", 1, "repositories", "at least one repository");
        assertError("repositories: {a: {}}\nrouting: []\n", 2, "routing", "at least one rule");
        assertError("repositories: {a: {}}\nrouting:\n  - when: {type: Root}\n", 3, "routing[0].to", "missing");
        assertError(aOrBWhen("{property: state}"), 3, "routing[0].when.in", "`property` and `in` go together");
        assertError(aOrBWhen("{}"), 3, "routing[0].when", "no conditions");
    }

    @Test
    void repositoriesMustBeKnownValidAndUsed() {
        assertError("""
                repositories: {us-east: {}, us-west: {}}
                routing:
                  - when: {property: state, in: [CA]}
                    to: us-north
                  - to: us-east
                """, 4, "routing[0].to", "unknown repository 'us-north' (repositories: us-east, us-west)");
        assertError("""
                repositories:
                  us-east: {}
                  archives: {}
                routing:
                  - to: us-east
                """, 3, "repositories.archives", "no routing rule sends documents to it");
        assertError("""
                repositories:
                  US East: {}
                routing: [{to: US East}]
                """, 2, "repositories.US East", "a repository name is");
    }

    @Test
    void rulesMustNotOverlapAndMustCoverEveryDocument() {
        assertError("""
                repositories: {a: {}, b: {}}
                routing:
                  - when: {type: Statement}
                    to: b
                """, 3, "routing[0]", "the last rule must have no `when`");
        assertError("""
                repositories: {a: {}, b: {}, c: {}}
                routing:
                  - when: {type: Statement, minAge: P6M}
                    to: b
                  - when: {type: Statement, minAge: P1Y}
                    to: c
                  - to: a
                """, 5, "routing[1]", "never applies: routing[0] (line 3) already takes every document it would take");
        assertError("""
                repositories: {a: {}, b: {}}
                routing:
                  - to: a
                  - to: b
                """, 4, "routing[1]", "never applies: routing[0] (line 3)");
        assertError("""
                repositories: {east: {}, west: {}}
                routing:
                  - when: {property: state, in: [CA, OR, WA]}
                    to: west
                  - when: {property: state, in: [NY, WA]}
                    to: east
                  - to: east
                """, 5, "routing[1].when.in", "overlaps routing[0] (line 3): WA in both");
        assertError(aOrBWhen("{type: Statement, minAge: 6 months}"), 3, "routing[0].when.minAge", "like P6M or P1Y, was '6 months'");
    }

    @Test
    void aRepositoryIndexLayoutIsReadAndCheckedAndLeftOutIsTheTemplates() {
        Topology topology = parse("""
                repositories:
                  east:
                    profile: live
                    index: {shards: 11, replicas: 1, refreshInterval: 30s, codec: best_compression, routing: customerNumber}
                  archives:
                    profile: archive
                    index: {codec: best_compression}
                  plain: {}
                """ + EAST_ARCHIVES_PLAIN_ROUTING);
        assertThat(topology.indexLayouts().get("east"))
                .isEqualTo(new IndexLayout(11, 1, "30s", "best_compression", "customerNumber", IndexProfile.LIVE));
        assertThat(topology.indexLayouts().get("archives")).isEqualTo(new IndexLayout(null, null, null, "best_compression", null, IndexProfile.ARCHIVE));
        assertThat(topology.indexLayouts().get("plain")).isEqualTo(IndexLayout.TEMPLATE);

        String repository = "repositories:\n  a:\n    index: {%s}\nrouting: [{to: a}]\n";
        assertError(repository.formatted("shards: 0"), 3, "repositories.a.index.shards", "within 1..1024, was '0'");
        assertError(repository.formatted("replicas: many"), 3, "repositories.a.index.replicas", "whole number");
        assertError(repository.formatted("refreshInterval: soon"), 3, "repositories.a.index.refreshInterval", "like 1s");
        assertError(repository.formatted("codec: zstd"), 3, "repositories.a.index.codec",
                "expected one of: best_compression, default, was 'zstd'");
        assertError(repository.formatted("sharding: 3"), 3, "repositories.a.index.sharding", "unknown key");
        assertError(repository.formatted("alias: Old.Statements"), 3, "repositories.a.index.alias",
                "no '.'), was 'Old.Statements'");
        assertError("repositories:\n  a:\n  b:\n    index: {alias: a}\nrouting: [{when: {type: X}, to: b}, {to: a}]\n", 4,
                "repositories.b.index.alias", "'a' names repository a's index already");
        assertError("repositories:\n  a: {profile: hot}\nrouting: [{to: a}]\n", 2, "repositories.a.profile",
                "expected one of: metadata, live, archive, was 'hot'");
    }

    @Test
    void aRepositoryMayHaveADatabaseOfItsOwnWhoseConnectionStringComesFromTheEnvironment() {
        String yaml = """
                repositories:
                  east:
                  archives:
                    mongodb: {uri: "${ARCHIVES_URI:-mongodb://127.0.0.1:27018}", database: cold}
                  plain:
                    mongodb: {database: other}
                """ + EAST_ARCHIVES_PLAIN_ROUTING;
        Topology defaulted = TopologyFile.parse("test.yaml", yaml, name -> null);
        assertThat(defaulted.databases()).containsOnlyKeys("archives", "plain");
        assertThat(defaulted.databases().get("archives")).isEqualTo(new MongoLocation("mongodb://127.0.0.1:27018", "cold"));
        assertThat(defaulted.databases().get("plain")).isEqualTo(new MongoLocation(null, "other"));
        Topology fromEnvironment = TopologyFile.parse("test.yaml", yaml,
                name -> name.equals("ARCHIVES_URI") ? "mongodb://user:secret@archive-0,archive-1/?replicaSet=rs" : null);
        assertThat(fromEnvironment.databases().get("archives").uri()).isEqualTo("mongodb://user:secret@archive-0,archive-1/?replicaSet=rs");
        assertThat(fromEnvironment.databases().get("archives").toString()).as("no credentials printed")
                .doesNotContain("secret").isEqualTo("database 'cold' at archive-0,archive-1");

        String repository = "repositories:\n  a:\n    mongodb: %s\nrouting: [{to: a}]\n";
        assertError(repository.formatted("{uri: \"${NOT_SET}\"}"), 3, "repositories.a.mongodb.uri",
                "environment variable NOT_SET is not set");
        assertError(repository.formatted("{uri: \"http://secret@host\"}"), 3, "repositories.a.mongodb.uri",
                "not a MongoDB connection string");
        assertThatThrownBy(() -> parse(repository.formatted("{uri: \"http://secret@host\"}")))
                .message().doesNotContain("secret");
        assertError(repository.formatted("{database: a.b}"), 3, "repositories.a.mongodb.database", "was 'a.b'");
        assertError(repository.formatted("{}"), 3, "repositories.a.mongodb", "expected `uri`, `database` or both");
        assertError(repository.formatted("{host: x}"), 3, "repositories.a.mongodb.host", "unknown key");
    }

    @Test
    void aRepositoryMayHaveABlobStoreOfItsOwn() {
        Topology topology = parse("repositories:\n  a:\n    blobStore: s3://archive-blobs/statements\n  b:\nrouting:\n"
                + "  - {when: {type: Statement}, to: a}\n  - to: b\n");
        assertThat(topology.blobStores()).containsExactly(Map.entry("a", "s3://archive-blobs/statements"));
        assertError("repositories:\n  a:\n    blobStore: s3://Archive_Blobs\nrouting: [{to: a}]\n", 3,
                "repositories.a.blobStore", "'Archive_Blobs' is not a valid S3 bucket name");
    }

    @Test
    void aFileThatCannotBeReadSaysSo() {
        assertThatThrownBy(() -> TopologyFile.load(TOPOLOGIES.resolve("absent.yaml")))
                .isInstanceOf(TopologyException.class).hasMessageContaining("absent.yaml: cannot read the topology file");
    }

    private static Topology parse(String yaml) {
        return TopologyFile.parse("test.yaml", yaml);
    }

    /** Repositories a and b; the rule on line 3 sends what {@code when} takes to b, the last one the rest to a. */
    private static String aOrBWhen(String when) {
        return """
                repositories: {a: {}, b: {}}
                routing:
                  - when: %s
                    to: b
                  - to: a
                """.formatted(when);
    }

    private static void assertError(String yaml, int line, String field, String problem) {
        assertThatThrownBy(() -> parse(yaml)).isInstanceOfSatisfying(TopologyException.class, e -> {
            assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
            assertThat(e.field()).as(e.getMessage()).isEqualTo(field);
            assertThat(e.getMessage()).startsWith("test.yaml" + (line > 0 ? ":" + line : "")).contains(problem);
        });
    }
}
