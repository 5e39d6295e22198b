package io.volumizer.domain.yaml;

import java.io.StringReader;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The reading of a YAML file of the project's (a topology, a campaign) as snakeyaml nodes rather than bound to
 * classes, so that every error, of syntax or of meaning, names the line and the field it is at: the file's reader
 * walks the nodes with these checks, and each failure is its own exception type, made by {@code errors}.
 *
 * @param <E> what a file's reader throws
 */
public final class YamlNodes<E extends RuntimeException> {

    /** Makes a reader's exception: the line (from 1; 0 for the whole file), the field's path, and the problem. */
    public interface Errors<E extends RuntimeException> {
        E at(int line, String field, String problem);
    }

    private final Errors<E> errors;

    public YamlNodes(Errors<E> errors) {
        this.errors = errors;
    }

    /** The document's root node; null for an empty text. */
    public Node compose(String yaml) {
        try {
            return new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(yaml));
        } catch (MarkedYAMLException e) {
            throw errors.at(e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1, "",
                    "not valid YAML: " + e.getProblem());
        }
    }

    /** A mapping's entries by key, refusing repeated keys and, unless {@code allowed} is null, keys not in it. */
    public Map<String, Node> mapping(Node node, String field, Set<String> allowed) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL)) {
            return Map.of(); // `key:` with nothing after it
        }
        if (!(node instanceof MappingNode mapping)) {
            throw error(node, field, "expected a mapping (key: value)");
        }
        Map<String, Node> entries = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            String key = scalar(tuple.getKeyNode(), field);
            String keyField = field.isEmpty() ? key : field + "." + key;
            if (allowed != null && !allowed.contains(key)) {
                throw error(tuple.getKeyNode(), keyField, "unknown key (expected one of: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
            if (entries.put(key, tuple.getValueNode()) != null) {
                throw error(tuple.getKeyNode(), keyField, "given twice");
            }
        }
        return entries;
    }

    public List<Node> sequence(Node node, String field) {
        if (!(node instanceof SequenceNode sequence)) {
            throw error(node, field, "expected a list (- item)");
        }
        return sequence.getValue();
    }

    public String scalar(Node node, String field) {
        if (!(node instanceof ScalarNode scalar) || scalar.getValue().isEmpty()) {
            throw error(node, field, "expected a value");
        }
        return scalar.getValue();
    }

    /** One value or a list of them. */
    public Set<String> scalars(Node node, String field) {
        if (node instanceof ScalarNode) {
            return Set.of(scalar(node, field));
        }
        Set<String> values = new LinkedHashSet<>();
        List<Node> items = sequence(node, field);
        for (int i = 0; i < items.size(); i++) {
            if (!values.add(scalar(items.get(i), field + "[" + i + "]"))) {
                throw error(items.get(i), field + "[" + i + "]", "given twice");
            }
        }
        if (values.isEmpty()) {
            throw error(node, field, "expected at least one value");
        }
        return Collections.unmodifiableSet(values);
    }

    public Node required(Map<String, Node> entries, Node parent, String field, String key) {
        Node node = entries.get(key);
        if (node == null) {
            throw error(parent, field.isEmpty() ? key : field + "." + key, "missing");
        }
        return node;
    }

    /** A whole number within {@code min..max}. */
    public long integer(Node node, String field, long min, long max) {
        String text = scalar(node, field);
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below, with the range expected
        }
        throw error(node, field, "expected a whole number within " + min + ".." + max + ", was '" + text + "'");
    }

    /** The node's line in the file, counted from 1. */
    public static int line(Node node) {
        return node.getStartMark().getLine() + 1;
    }

    public E error(Node node, String field, String problem) {
        return errors.at(line(node), field, problem);
    }

    /** An error of the whole file (no line, no field). */
    public E fileError(String problem) {
        return errors.at(0, "", problem);
    }
}
