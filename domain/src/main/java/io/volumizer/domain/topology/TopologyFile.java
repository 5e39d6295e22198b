package io.volumizer.domain.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Period;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.nodes.Node;

import com.mongodb.ConnectionString;

import io.volumizer.domain.yaml.YamlNodes;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.blob.BlobStoreOptions;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.mongodb.MongoLocation;

/**
 * Reads a topology file (YAML) and checks it whole, so that a job or the API refuses to start on a topology that
 * would lose or misroute documents. The file is read as YAML nodes rather than bound to classes, because every
 * error, of syntax or of meaning, names the line and the field it is at. The format:
 *
 * <pre>
 * repositories:            # at least one; a name is what documents, collections and index aliases carry
 *   us-east:
 *     profile: live         # metadata (the default), live (and the file's text) or archive (reduced)
 *     index: {shards: 3, replicas: 1, refreshInterval: 30s, codec: best_compression, routing: customerNumber}
 *                           # index.alias: the index's name under --index-prefix (default: the repository's)
 *   archives:               # every index setting left out is the repository template's
 *     mongodb: {uri: "${ARCHIVES_MONGODB_URI:-mongodb://127.0.0.1:27018}", database: archives}
 *                           # its own database (either part left out is the job's --mongodb-uri/-database)
 *     blobStore: s3://archives-blobs   # its own blob store (a folder or s3://bucket/prefix), else --blob-store
 * routing:                 # in order: a document goes where the first rule that takes it says
 *   - when: {type: Statement, minAge: P6M}                  # any of: type (one or a list), property + in, minAge
 *     to: archives
 *   - when: {property: state, in: [CA, OR, WA]}
 *     to: us-west
 *   - to: us-east          # the last rule has no `when`: every document has a repository
 * </pre>
 *
 * Refused: unknown keys, repeated keys, an unknown repository, a repository no rule routes to, a rule an earlier
 * one already covers, a property value two rules of the same conditions share, and a last rule with conditions.
 */
public final class TopologyFile {

    private static final String REPOSITORIES = "repositories";
    private static final String ROUTING = "routing";
    private static final String WHEN = "when";
    private static final String TO = "to";
    private static final String TYPE = "type";
    private static final String PROPERTY = "property";
    private static final String IN = "in";
    private static final String MIN_AGE = "minAge";
    private static final String PROFILE = "profile";
    private static final String INDEX = "index";
    private static final String SHARDS = "shards";
    private static final String REPLICAS = "replicas";
    private static final String REFRESH_INTERVAL = "refreshInterval";
    private static final String CODEC = "codec";
    private static final String ROUTING_PROPERTY = "routing";
    private static final String ALIAS = "alias";
    /** An alias under the index prefix: what Elasticsearch takes in an index name, without '.' (generations use it). */
    private static final String ALIAS_PATTERN = "[a-z0-9][a-z0-9_-]{0,99}";
    private static final String MONGODB = "mongodb";
    private static final String URI = "uri";
    private static final String DATABASE = "database";
    private static final String BLOB_STORE = "blobStore";
    /** MongoDB's rule for database names, kept to the characters that need no quoting anywhere. */
    private static final String DATABASE_PATTERN = "[A-Za-z0-9_-]{1,63}";
    /** {@code ${NAME}} or {@code ${NAME:-default}}: a connection string's credentials come from the environment. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final Set<String> CODECS = Set.of("default", "best_compression");
    /** Elasticsearch's time units that a refresh interval takes, or -1 (no refresh). */
    private static final String REFRESH_PATTERN = "-1|[0-9]+(ms|s|m|h)";

    private final String source;
    private final UnaryOperator<String> environment;
    private final YamlNodes<TopologyException> nodes;

    private TopologyFile(String source, UnaryOperator<String> environment) {
        this.source = source;
        this.environment = environment;
        this.nodes = new YamlNodes<>((line, field, problem) -> new TopologyException(source, line, field, problem));
    }

    /** @throws TopologyException naming the line and field of what is wrong, or that the file cannot be read */
    public static Topology load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new TopologyException(file.toString(), 0, "", "cannot read the topology file: " + e);
        }
        return parse(file.toString(), text);
    }

    /** @param source where the text comes from, for messages */
    public static Topology parse(String source, String yaml) {
        return parse(source, yaml, System::getenv);
    }

    /** @param environment the variables that {@code ${NAME}} in a connection string is replaced with */
    static Topology parse(String source, String yaml, UnaryOperator<String> environment) {
        return new TopologyFile(source, environment).topology(yaml);
    }

    private Topology topology(String yaml) {
        Node root = nodes.compose(yaml);
        if (root == null) {
            throw nodes.fileError("empty: a topology has " + REPOSITORIES + " and " + ROUTING);
        }
        Map<String, Node> top = nodes.mapping(root, "", Set.of(REPOSITORIES, ROUTING));
        Node repositoriesNode = nodes.required(top, root, "", REPOSITORIES);
        Map<String, Node> repositories = nodes.mapping(repositoriesNode, REPOSITORIES, null);
        if (repositories.isEmpty()) {
            throw error(repositoriesNode, REPOSITORIES, "at least one repository is needed");
        }
        Map<String, IndexLayout> layouts = new LinkedHashMap<>();
        Map<String, String> aliases = new LinkedHashMap<>();
        Map<String, String> indexNames = new HashMap<>();
        Map<String, MongoLocation> databases = new LinkedHashMap<>();
        Map<String, String> blobStores = new LinkedHashMap<>();
        for (Map.Entry<String, Node> repository : repositories.entrySet()) {
            String field = REPOSITORIES + "." + repository.getKey();
            if (!RepositoryNames.isValid(repository.getKey())) {
                throw error(repository.getValue(), field, "a repository name is " + RepositoryNames.RULE);
            }
            Map<String, Node> spec = nodes.mapping(repository.getValue(), field, Set.of(PROFILE, INDEX, MONGODB, BLOB_STORE));
            if (spec.containsKey(MONGODB)) {
                databases.put(repository.getKey(), mongoLocation(spec.get(MONGODB), field + "." + MONGODB));
            }
            if (spec.containsKey(BLOB_STORE)) {
                blobStores.put(repository.getKey(), blobStore(spec.get(BLOB_STORE), field + "." + BLOB_STORE));
            }
            IndexProfile profile = spec.containsKey(PROFILE) ? profile(spec.get(PROFILE), field + "." + PROFILE)
                    : IndexProfile.METADATA;
            layouts.put(repository.getKey(), spec.containsKey(INDEX) ? layout(spec.get(INDEX), field + "." + INDEX, profile)
                    : new IndexLayout(null, null, null, null, null, profile));
            Node aliasNode = spec.containsKey(INDEX) ? nodes.mapping(spec.get(INDEX), field + "." + INDEX, null).get(ALIAS) : null;
            String indexName = repository.getKey();
            if (aliasNode != null) {
                indexName = nodes.scalar(aliasNode, field + "." + INDEX + "." + ALIAS);
                if (!indexName.matches(ALIAS_PATTERN)) {
                    throw error(aliasNode, field + "." + INDEX + "." + ALIAS, "an alias is lower-case letters, digits, '-' "
                            + "and '_' (at most 100, no '.'), was '" + indexName + "'");
                }
                aliases.put(repository.getKey(), indexName);
            }
            String other = indexNames.put(indexName, repository.getKey());
            if (other != null) {
                throw error(aliasNode != null ? aliasNode : repository.getValue(), aliasNode != null ? field + "." + INDEX
                        + "." + ALIAS : field, "'" + indexName + "' names repository " + other + "'s index already");
            }
        }
        Node routingNode = nodes.required(top, root, "", ROUTING);
        List<RoutingRule> rules = rules(routingNode, repositories);
        return new Topology(source, List.copyOf(repositories.keySet()), Map.copyOf(layouts), Map.copyOf(aliases),
                Map.copyOf(databases),
                Map.copyOf(blobStores), rules);
    }

    private MongoLocation mongoLocation(Node node, String field) {
        Map<String, Node> mongodb = nodes.mapping(node, field, Set.of(URI, DATABASE));
        if (mongodb.isEmpty()) {
            throw error(node, field, "expected `" + URI + "`, `" + DATABASE + "` or both (leave `" + MONGODB
                    + "` out for the job's database)");
        }
        String uri = null;
        if (mongodb.containsKey(URI)) {
            Node uriNode = mongodb.get(URI);
            uri = expand(uriNode, field + "." + URI, nodes.scalar(uriNode, field + "." + URI));
            try {
                new ConnectionString(uri);
            } catch (IllegalArgumentException e) {
                // The driver's message may quote the string, and with it a password: only the expected form is said.
                throw error(uriNode, field + "." + URI, "not a MongoDB connection string "
                        + "(mongodb://host[:port][,host...][/?options] or mongodb+srv://host)");
            }
        }
        String database = mongodb.containsKey(DATABASE) ? nodes.scalar(mongodb.get(DATABASE), field + "." + DATABASE) : null;
        if (database != null && !database.matches(DATABASE_PATTERN)) {
            throw error(mongodb.get(DATABASE), field + "." + DATABASE, "a database name is 1 to 63 letters, digits, "
                    + "'-' or '_', was '" + database + "'");
        }
        return new MongoLocation(uri, database);
    }

    private String blobStore(Node node, String field) {
        String location = nodes.scalar(node, field);
        try {
            new BlobStoreOptions(location).validate();
        } catch (IllegalArgumentException e) {
            throw error(node, field, e.getMessage());
        }
        return location;
    }

    /** Replaces each {@code ${NAME}} and {@code ${NAME:-default}} with the environment's value. */
    private String expand(Node node, String field, String text) {
        Matcher variable = VARIABLE.matcher(text);
        StringBuilder expanded = new StringBuilder();
        while (variable.find()) {
            String value = environment.apply(variable.group(1));
            if (value == null || value.isEmpty()) {
                value = variable.group(2);
            }
            if (value == null) {
                throw error(node, field, "environment variable " + variable.group(1) + " is not set (or write ${"
                        + variable.group(1) + ":-default})");
            }
            variable.appendReplacement(expanded, Matcher.quoteReplacement(value));
        }
        variable.appendTail(expanded);
        return expanded.toString();
    }

    private IndexProfile profile(Node node, String field) {
        String text = nodes.scalar(node, field);
        for (IndexProfile profile : IndexProfile.values()) {
            if (profile.id().equals(text)) {
                return profile;
            }
        }
        throw error(node, field, "expected one of: metadata, live, archive, was '" + text + "'");
    }

    private IndexLayout layout(Node node, String field, IndexProfile profile) {
        Map<String, Node> index = nodes.mapping(node, field, Set.of(ALIAS, SHARDS, REPLICAS, REFRESH_INTERVAL, CODEC, ROUTING_PROPERTY));
        Integer shards = index.containsKey(SHARDS) ? (int) nodes.integer(index.get(SHARDS), field + "." + SHARDS, 1, 1024) : null;
        Integer replicas = index.containsKey(REPLICAS) ? (int) nodes.integer(index.get(REPLICAS), field + "." + REPLICAS, 0, 16) : null;
        String refresh = index.containsKey(REFRESH_INTERVAL) ? nodes.scalar(index.get(REFRESH_INTERVAL), field + "." + REFRESH_INTERVAL) : null;
        if (refresh != null && !refresh.matches(REFRESH_PATTERN)) {
            throw error(index.get(REFRESH_INTERVAL), field + "." + REFRESH_INTERVAL,
                    "expected a time like 1s, 500ms or 5m, or -1, was '" + refresh + "'");
        }
        String codec = index.containsKey(CODEC) ? nodes.scalar(index.get(CODEC), field + "." + CODEC) : null;
        if (codec != null && !CODECS.contains(codec)) {
            throw error(index.get(CODEC), field + "." + CODEC, "expected one of: "
                    + String.join(", ", CODECS.stream().sorted().toList()) + ", was '" + codec + "'");
        }
        String routing = index.containsKey(ROUTING_PROPERTY) ? nodes.scalar(index.get(ROUTING_PROPERTY), field + "." + ROUTING_PROPERTY) : null;
        return new IndexLayout(shards, replicas, refresh, codec, routing, profile);
    }

    private List<RoutingRule> rules(Node routingNode, Map<String, Node> repositories) {
        List<Node> items = nodes.sequence(routingNode, ROUTING);
        if (items.isEmpty()) {
            throw error(routingNode, ROUTING, "at least one rule is needed");
        }
        List<RoutingRule> rules = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String field = ROUTING + "[" + i + "]";
            RoutingRule rule = rule(items.get(i), field, repositories);
            for (int j = 0; j < rules.size(); j++) {
                RoutingRule earlier = rules.get(j);
                if (rule.isCoveredBy(earlier)) {
                    throw error(items.get(i), field, "never applies: " + ROUTING + "[" + j + "] (line " + earlier.line()
                            + ") already takes every document it would take");
                }
                if (rule.differsOnlyInValuesFrom(earlier)) {
                    Set<String> shared = new LinkedHashSet<>(rule.values());
                    shared.retainAll(earlier.values());
                    if (!shared.isEmpty()) {
                        throw error(items.get(i), field + "." + WHEN + "." + IN, "overlaps " + ROUTING + "[" + j
                                + "] (line " + earlier.line() + "): " + String.join(", ", shared) + " in both");
                    }
                }
            }
            rules.add(rule);
        }
        RoutingRule last = rules.get(rules.size() - 1);
        if (!last.isUnconditional()) {
            throw error(items.get(items.size() - 1), ROUTING + "[" + (rules.size() - 1) + "]",
                    "the last rule must have no `" + WHEN + "`, so that every document has a repository"
                            + " (add `- " + TO + ": <repository>` at the end)");
        }
        Set<String> routedTo = new HashSet<>();
        rules.forEach(rule -> routedTo.add(rule.repository()));
        for (Map.Entry<String, Node> repository : repositories.entrySet()) {
            if (!routedTo.contains(repository.getKey())) {
                throw error(repository.getValue(), REPOSITORIES + "." + repository.getKey(),
                        "no routing rule sends documents to it");
            }
        }
        return List.copyOf(rules);
    }

    private RoutingRule rule(Node node, String field, Map<String, Node> repositories) {
        Map<String, Node> rule = nodes.mapping(node, field, Set.of(WHEN, TO));
        Node toNode = nodes.required(rule, node, field, TO);
        String repository = nodes.scalar(toNode, field + "." + TO);
        if (!repositories.containsKey(repository)) {
            throw error(toNode, field + "." + TO, "unknown repository '" + repository + "' (" + REPOSITORIES + ": "
                    + String.join(", ", repositories.keySet()) + ")");
        }
        Node whenNode = rule.get(WHEN);
        if (whenNode == null) {
            return new RoutingRule(YamlNodes.line(node), Set.of(), null, Set.of(), 0, repository);
        }
        String whenField = field + "." + WHEN;
        Map<String, Node> when = nodes.mapping(whenNode, whenField, Set.of(TYPE, PROPERTY, IN, MIN_AGE));
        if (when.isEmpty()) {
            throw error(whenNode, whenField, "no conditions: leave `" + WHEN + "` out for a rule that takes every document");
        }
        Set<String> types = when.containsKey(TYPE) ? nodes.scalars(when.get(TYPE), whenField + "." + TYPE) : Set.of();
        String property = null;
        Set<String> values = Set.of();
        if (when.containsKey(PROPERTY) != when.containsKey(IN)) {
            String missing = when.containsKey(PROPERTY) ? IN : PROPERTY;
            throw error(whenNode, whenField + "." + missing, "`" + PROPERTY + "` and `" + IN + "` go together");
        }
        if (when.containsKey(PROPERTY)) {
            property = nodes.scalar(when.get(PROPERTY), whenField + "." + PROPERTY);
            values = nodes.scalars(when.get(IN), whenField + "." + IN);
        }
        int minAgeMonths = when.containsKey(MIN_AGE) ? months(when.get(MIN_AGE), whenField + "." + MIN_AGE) : 0;
        return new RoutingRule(YamlNodes.line(node), types, property, values, minAgeMonths, repository);
    }

    private int months(Node node, String field) {
        String text = nodes.scalar(node, field);
        try {
            Period period = Period.parse(text);
            if (period.getDays() == 0 && period.toTotalMonths() > 0) {
                return Math.toIntExact(period.toTotalMonths());
            }
        } catch (DateTimeException | ArithmeticException e) {
            // reported below, with the format expected
        }
        throw error(node, field, "expected a positive ISO-8601 period of months or years, like P6M or P1Y, was '"
                + text + "'");
    }

    private TopologyException error(Node node, String field, String problem) {
        return nodes.error(node, field, problem);
    }
}
