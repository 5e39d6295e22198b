package io.volumizer.campaigns.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.nodes.Node;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.commands.CommandRefusedException;
import io.volumizer.api.commands.CommandRequests;
import io.volumizer.domain.selection.Selection;
import io.volumizer.domain.yaml.YamlNodes;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.schemas.event.Permission;
import io.volumizer.schemas.keys.RepositoryNames;

/**
 * Reads a campaign file (YAML) and checks it whole before anything runs, every error naming its line and field,
 * as the topology file is read ({@link YamlNodes}). The format:
 *
 * <pre>
 * name: growth                      # names the results folder, and the repository and topics it builds
 * description: ...                  # optional
 * repository: growth                # optional: the repository built (default: the name)
 * stop: {diskFreeBelow: 10GiB, after: 3h}   # optional: checked before every step; either stops the campaign
 * sizes: [1M, 2M, 5M, 10M, 20M]     # the `each` steps run at each size, in order (2000, 5k, 1M, 2.5M, 1G)
 * each:
 *   - import: {to: size, rate: 0}   # import and index until the repository holds the size; rate: docs/s, 0 (the
 *                                   # default) full speed; `to: size` is the loop's size (the default)
 *   - measure: {navigation: 10, search: 5, seconds: 60, warmUp: 10}   # requests a second at a fixed (open-model)
 *                                   # rate; warmUp: seconds of the same requests first, not recorded (default 10)
 *   - reindex: {rangeSize: 1000}    # through the reindex command; rangeSize optional (the command's default)
 * steps:                            # instead of sizes and each: an explicit list
 *   - import: {to: 1M}
 *   - fault: {kill: flink-taskmanager}       # or {down: mongodb, for: 30s}
 *   - bulk: {set: {reviewed: yes}, type: Statement, state: TX}   # a bulk update: the search API's filters, or all: true
 *   - acl: {folder: st-TX, grant: compliance, permission: READ}  # setAcl: one more entry; permission default READ
 * </pre>
 *
 * A step is a mapping of one key, its kind. The kind throttle is refused (see the campaigns page), and a campaign
 * never skips a step silently.
 */
public final class CampaignFile {

    static final String IMPORT = "import";
    static final String MEASURE = "measure";
    static final String REINDEX = "reindex";
    static final String FAULT = "fault";
    static final String BULK = "bulk";
    static final String ACL = "acl";
    /** Kinds of the design the runner does not run yet: refused by name rather than unknown. */
    private static final Set<String> NOT_BUILT = Set.of("throttle");
    private static final Set<String> KINDS = Set.of(IMPORT, MEASURE, REINDEX, FAULT, BULK, ACL);

    private static final String NAME = "name";
    private static final String DESCRIPTION = "description";
    private static final String REPOSITORY = "repository";
    private static final String STOP = "stop";
    private static final String SIZES = "sizes";
    private static final String EACH = "each";
    private static final String STEPS = "steps";
    private static final String DISK_FREE_BELOW = "diskFreeBelow";
    private static final String AFTER = "after";
    private static final String TO = "to";
    private static final String RATE = "rate";
    private static final String THE_SIZE = "size";
    private static final String NAVIGATION = "navigation";
    private static final String SEARCH = "search";
    private static final String SECONDS = "seconds";
    private static final String WARM_UP = "warmUp";
    private static final String RANGE_SIZE = "rangeSize";
    private static final String KILL = "kill";
    private static final String DOWN = "down";
    private static final String FOR = "for";
    private static final String SET = "set";
    private static final String ALL = "all";
    private static final String FOLDER = "folder";
    private static final String GRANT = "grant";
    private static final String PERMISSION = "permission";
    /** A measure's requests a second of one scenario, and how long it lasts: what one runner's threads keep up. */
    private static final int MAX_RATE = 1000;
    private static final int MAX_SECONDS = 3600;
    /**
     * A measure's requests before it records any, at its rates: the stores' caches, the connections and the JIT
     * warmed by the very requests measured, so that the first seconds' misses are not the size's latencies.
     */
    public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(10);
    private static final Pattern BYTES = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(B|KiB|MiB|GiB|TiB)");
    private static final Pattern DURATION = Pattern.compile("([0-9]+)(s|m|h)");
    private static final Pattern SERVICE = Pattern.compile("[a-z][a-z0-9-]*");

    private final String source;
    private final YamlNodes<CampaignException> nodes;
    /** The campaign's repository, once read: the bulk steps' messages name it. */
    private String repository;

    private CampaignFile(String source) {
        this.source = source;
        this.nodes = new YamlNodes<>((line, field, problem) -> new CampaignException(source, line, field, problem));
    }

    /** @throws CampaignException naming the line and field of what is wrong, or that the file cannot be read */
    public static Campaign load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new CampaignException(file.toString(), 0, "", "cannot read the campaign file: " + e);
        }
        return parse(file.toString(), text);
    }

    /** @param source where the text comes from, for messages */
    public static Campaign parse(String source, String yaml) {
        return new CampaignFile(source).campaign(yaml);
    }

    private Campaign campaign(String yaml) {
        Node root = nodes.compose(yaml);
        if (root == null) {
            throw nodes.fileError("empty: a campaign has a " + NAME + ", and " + SIZES + " with " + EACH + ", or "
                    + STEPS);
        }
        Map<String, Node> top = nodes.mapping(root, "", Set.of(NAME, DESCRIPTION, REPOSITORY, STOP, SIZES, EACH, STEPS));
        String name = repositoryName(nodes.required(top, root, "", NAME), NAME);
        String description = top.containsKey(DESCRIPTION) ? nodes.scalar(top.get(DESCRIPTION), DESCRIPTION) : "";
        repository = top.containsKey(REPOSITORY) ? repositoryName(top.get(REPOSITORY), REPOSITORY) : name;
        Campaign.Stop stop = top.containsKey(STOP) ? stop(top.get(STOP)) : Campaign.Stop.NONE;
        List<CampaignStep> steps = new ArrayList<>();
        if (top.containsKey(STEPS)) {
            if (top.containsKey(SIZES) || top.containsKey(EACH)) {
                Node other = top.containsKey(SIZES) ? top.get(SIZES) : top.get(EACH);
                throw nodes.error(other, top.containsKey(SIZES) ? SIZES : EACH, "give either " + SIZES + " and "
                        + EACH + ", or " + STEPS + ", not both");
            }
            Size size = null;
            List<Node> items = nonEmpty(top.get(STEPS), STEPS);
            for (int i = 0; i < items.size(); i++) {
                StepSpec spec = step(items.get(i), STEPS + "[" + i + "]", false);
                if (spec instanceof StepSpec.Import imported) {
                    size = imported.to();
                }
                steps.add(new CampaignStep(steps.size() + 1, spec, size, YamlNodes.line(items.get(i))));
            }
        } else {
            Node sizesNode = nodes.required(top, root, "", SIZES);
            Node eachNode = nodes.required(top, root, "", EACH);
            List<Size> sizes = sizes(sizesNode);
            List<Node> items = nonEmpty(eachNode, EACH);
            List<StepSpec> atEach = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                atEach.add(step(items.get(i), EACH + "[" + i + "]", true));
            }
            for (Size size : sizes) {
                for (int i = 0; i < atEach.size(); i++) {
                    StepSpec spec = atEach.get(i) instanceof StepSpec.Import imported && imported.to() == null
                            ? new StepSpec.Import(size, imported.docsPerSecond()) : atEach.get(i);
                    steps.add(new CampaignStep(steps.size() + 1, spec, size, YamlNodes.line(items.get(i))));
                }
            }
        }
        checkGrowing(steps, top.containsKey(STEPS) ? top.get(STEPS) : top.get(SIZES));
        return new Campaign(source, name, description, repository, stop, List.copyOf(steps));
    }

    /** A later import asks for more documents than the one before: a repository is never shrunk. */
    private void checkGrowing(List<CampaignStep> steps, Node at) {
        long last = 0;
        for (CampaignStep step : steps) {
            if (step.spec() instanceof StepSpec.Import imported) {
                if (imported.to().documents() <= last) {
                    throw new CampaignException(source, step.line(), "", "an import to " + imported.to().label()
                            + " after one to " + last + " documents: each import must ask for more than the last");
                }
                last = imported.to().documents();
            }
        }
        if (last == 0) {
            throw nodes.error(at, "", "no import: a campaign builds its repository with at least one " + IMPORT);
        }
    }

    private List<Node> nonEmpty(Node node, String field) {
        List<Node> items = nodes.sequence(node, field);
        if (items.isEmpty()) {
            throw nodes.error(node, field, "at least one step is needed");
        }
        return items;
    }

    private String repositoryName(Node node, String field) {
        String name = nodes.scalar(node, field);
        if (!RepositoryNames.isValid(name)) {
            throw nodes.error(node, field, "it names a repository and its topics: " + RepositoryNames.RULE
                    + ", was '" + name + "'");
        }
        return name;
    }

    private Campaign.Stop stop(Node node) {
        Map<String, Node> stop = nodes.mapping(node, STOP, Set.of(DISK_FREE_BELOW, AFTER));
        if (stop.isEmpty()) {
            throw nodes.error(node, STOP, "expected `" + DISK_FREE_BELOW + "`, `" + AFTER + "` or both");
        }
        Long floor = stop.containsKey(DISK_FREE_BELOW) ? bytes(stop.get(DISK_FREE_BELOW), STOP + "." + DISK_FREE_BELOW)
                : null;
        Duration after = stop.containsKey(AFTER) ? duration(stop.get(AFTER), STOP + "." + AFTER) : null;
        return new Campaign.Stop(floor, after);
    }

    private List<Size> sizes(Node node) {
        List<Node> items = nodes.sequence(node, SIZES);
        if (items.isEmpty()) {
            throw nodes.error(node, SIZES, "at least one size is needed");
        }
        List<Size> sizes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Size size = size(items.get(i), SIZES + "[" + i + "]");
            if (!sizes.isEmpty() && size.documents() <= sizes.get(sizes.size() - 1).documents()) {
                throw nodes.error(items.get(i), SIZES + "[" + i + "]", "sizes grow: " + size.label() + " is not more than "
                        + sizes.get(sizes.size() - 1).label());
            }
            sizes.add(size);
        }
        return sizes;
    }

    private Size size(Node node, String field) {
        String text = nodes.scalar(node, field);
        Size size = Size.parse(text);
        if (size == null) {
            throw nodes.error(node, field, "expected a number of documents like 2000, 5k, 1M or 2.5M, was '" + text + "'");
        }
        return size;
    }

    /**
     * A step: a mapping of one key, its kind.
     *
     * @param inLoop whether it is one of `each` (its imports take each size in turn)
     */
    private StepSpec step(Node node, String field, boolean inLoop) {
        Map<String, Node> step = nodes.mapping(node, field, null);
        if (step.size() != 1) {
            throw nodes.error(node, field, "a step is one of: " + String.join(", ", KINDS.stream().sorted().toList())
                    + ", written `- kind: {fields}`");
        }
        String kind = step.keySet().iterator().next();
        Node body = step.get(kind);
        String at = field + "." + kind;
        if (NOT_BUILT.contains(kind)) {
            throw nodes.error(node, at, "the runner does not run '" + kind + "' steps yet (it runs: "
                    + String.join(", ", KINDS.stream().sorted().toList()) + ")");
        }
        return switch (kind) {
            case IMPORT -> importStep(body, at, inLoop);
            case MEASURE -> measure(body, at);
            case REINDEX -> reindex(body, at);
            case FAULT -> fault(body, at);
            case BULK -> bulk(body, at);
            case ACL -> acl(body, at);
            default -> throw nodes.error(node, at, "unknown step (expected one of: "
                    + String.join(", ", KINDS.stream().sorted().toList()) + ")");
        };
    }

    /** @return its target, or null for the loop's size */
    private StepSpec.Import importStep(Node node, String field, boolean inLoop) {
        Map<String, Node> fields = nodes.mapping(node, field, Set.of(TO, RATE));
        Size to = null;
        Node toNode = fields.get(TO);
        if (inLoop) {
            if (toNode != null && !nodes.scalar(toNode, field + "." + TO).equals(THE_SIZE)) {
                throw nodes.error(toNode, field + "." + TO, "in `" + EACH + "` an import goes to the loop's size: `"
                        + TO + ": " + THE_SIZE + "` (or leave it out)");
            }
        } else {
            to = size(nodes.required(fields, node, field, TO), field + "." + TO);
        }
        double rate = fields.containsKey(RATE) ? nodes.integer(fields.get(RATE), field + "." + RATE, 0, 10_000_000) : 0;
        return new StepSpec.Import(to, rate);
    }

    private StepSpec.Measure measure(Node node, String field) {
        Map<String, Node> fields = nodes.mapping(node, field, Set.of(NAVIGATION, SEARCH, SECONDS, WARM_UP));
        int navigation = fields.containsKey(NAVIGATION)
                ? (int) nodes.integer(fields.get(NAVIGATION), field + "." + NAVIGATION, 0, MAX_RATE) : 0;
        int search = fields.containsKey(SEARCH) ? (int) nodes.integer(fields.get(SEARCH), field + "." + SEARCH, 0, MAX_RATE) : 0;
        if (navigation + search == 0) {
            throw nodes.error(node, field, "no requests: give `" + NAVIGATION + "`, `" + SEARCH
                    + "` or both, in requests a second");
        }
        long seconds = nodes.integer(nodes.required(fields, node, field, SECONDS), field + "." + SECONDS, 1, MAX_SECONDS);
        Duration warmUp = fields.containsKey(WARM_UP) ? Duration.ofSeconds(nodes.integer(fields.get(WARM_UP),
                field + "." + WARM_UP, 0, MAX_SECONDS)) : DEFAULT_WARM_UP;
        return new StepSpec.Measure(navigation, search, Duration.ofSeconds(seconds), warmUp);
    }

    private StepSpec.Reindex reindex(Node node, String field) {
        Map<String, Node> fields = nodes.mapping(node, field, Set.of(RANGE_SIZE));
        return new StepSpec.Reindex(fields.containsKey(RANGE_SIZE)
                ? (int) nodes.integer(fields.get(RANGE_SIZE), field + "." + RANGE_SIZE, 1, 10_000_000) : null);
    }

    private StepSpec.Fault fault(Node node, String field) {
        Map<String, Node> fields = nodes.mapping(node, field, Set.of(KILL, DOWN, FOR));
        if (fields.containsKey(KILL) == fields.containsKey(DOWN)) {
            throw nodes.error(node, field, "expected `" + KILL + ": <service>` or `" + DOWN + ": <service>, " + FOR
                    + ": <time>`");
        }
        String action = fields.containsKey(KILL) ? KILL : DOWN;
        String service = nodes.scalar(fields.get(action), field + "." + action);
        if (!SERVICE.matcher(service).matches()) {
            throw nodes.error(fields.get(action), field + "." + action, "expected a local service's name, like "
                    + "flink-taskmanager or mongodb, was '" + service + "'");
        }
        if (action.equals(KILL)) {
            if (fields.containsKey(FOR)) {
                throw nodes.error(fields.get(FOR), field + "." + FOR, "a killed service is started again at once: `"
                        + FOR + "` goes with `" + DOWN + "`");
            }
            return new StepSpec.Fault(service, null);
        }
        return new StepSpec.Fault(service, duration(nodes.required(fields, node, field, FOR), field + "." + FOR));
    }

    /** Checked as the API checks the command it asks for (filters, properties, a selection or all). */
    private StepSpec.Bulk bulk(Node node, String field) {
        Set<String> keys = new HashSet<>(Selection.FILTERS);
        keys.addAll(Set.of(SET, ALL));
        Map<String, Node> fields = nodes.mapping(node, field, keys);
        Node setNode = nodes.required(fields, node, field, SET);
        Map<String, String> properties = new LinkedHashMap<>();
        nodes.mapping(setNode, field + "." + SET, null).forEach((name, value) ->
                properties.put(name, nodes.scalar(value, field + "." + SET + "." + name)));
        Map<String, String> filters = new LinkedHashMap<>();
        for (String filter : Selection.FILTERS) {
            if (fields.containsKey(filter)) {
                filters.put(filter, nodes.scalar(fields.get(filter), field + "." + filter));
            }
        }
        boolean all = false;
        if (fields.containsKey(ALL)) {
            String text = nodes.scalar(fields.get(ALL), field + "." + ALL);
            if (!text.equals("true") && !text.equals("false")) {
                throw nodes.error(fields.get(ALL), field + "." + ALL, "expected true or false, was '" + text + "'");
            }
            all = Boolean.parseBoolean(text);
        }
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        properties.forEach(values::put);
        try {
            CommandRequests.Bulk.of(repository, BulkUpdateOptions.Action.setProperties.name(), filters, all, values);
        } catch (CommandRefusedException e) {
            // The request's field (query.<filter>, params.properties..., all) as the step's key.
            String key = e.field() == null ? "" : e.field().startsWith("query.") ? e.field().substring(6)
                    : e.field().startsWith("params.") ? SET : e.field();
            Node at = fields.getOrDefault(key, node);
            throw nodes.error(at, key.isEmpty() ? field : field + "." + key, e.getMessage());
        }
        return new StepSpec.Bulk(Map.copyOf(properties), Map.copyOf(filters), all);
    }

    private StepSpec.Acl acl(Node node, String field) {
        Map<String, Node> fields = nodes.mapping(node, field, Set.of(FOLDER, GRANT, PERMISSION));
        String folder = nodes.scalar(nodes.required(fields, node, field, FOLDER), field + "." + FOLDER);
        String principal = nodes.scalar(nodes.required(fields, node, field, GRANT), field + "." + GRANT);
        Permission permission = Permission.READ;
        if (fields.containsKey(PERMISSION)) {
            String text = nodes.scalar(fields.get(PERMISSION), field + "." + PERMISSION);
            permission = Arrays.stream(Permission.values()).filter(p -> p.name().equals(text)).findFirst()
                    .orElseThrow(() -> nodes.error(fields.get(PERMISSION), field + "." + PERMISSION, "expected one of "
                            + Arrays.toString(Permission.values()) + ", was '" + text + "'"));
        }
        return new StepSpec.Acl(folder, principal, permission);
    }

    private long bytes(Node node, String field) {
        String text = nodes.scalar(node, field);
        Matcher bytes = BYTES.matcher(text);
        if (!bytes.matches()) {
            throw nodes.error(node, field, "expected a size like 10GiB or 500MiB, was '" + text + "'");
        }
        int power = List.of("B", "KiB", "MiB", "GiB", "TiB").indexOf(bytes.group(2));
        return (long) (Double.parseDouble(bytes.group(1)) * Math.pow(1024, power));
    }

    private Duration duration(Node node, String field) {
        String text = nodes.scalar(node, field);
        Matcher brief = DURATION.matcher(text);
        try {
            Duration duration = brief.matches()
                    ? Duration.parse("PT" + brief.group(1) + brief.group(2).toUpperCase(Locale.ROOT))
                    : Duration.parse(text);
            if (!duration.isNegative() && !duration.isZero()) {
                return duration;
            }
        } catch (DateTimeParseException e) {
            // reported below, with the forms expected
        }
        throw nodes.error(node, field, "expected a positive time like 30s, 5m, 3h or PT1H30M, was '" + text + "'");
    }
}
