package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The node types a plan sizes with, by name ({@code conf/node-types.yaml}). */
public record NodeTypes(Map<String, NodeType> types) {

    public record NodeType(String name, int vcpu, double memoryGiB, double diskGiB) {
        public NodeType {
            if (vcpu < 1 || !(memoryGiB > 0) || !(diskGiB > 0)) {
                throw new IllegalArgumentException("node type " + name + " needs vcpu >= 1, memoryGiB > 0 and diskGiB > 0");
            }
        }
    }

    public NodeType get(String name) {
        NodeType type = types.get(name);
        if (type == null) {
            throw new IllegalArgumentException("no node type '" + name + "' in the catalogue; it has " + types.keySet());
        }
        return type;
    }

    public static NodeTypes read(Path file) throws IOException {
        return parse(file.toString(), Files.readString(file));
    }

    static NodeTypes parse(String source, String yaml) {
        Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        if (!(loaded instanceof Map<?, ?> entries)) {
            throw new IllegalArgumentException(source + ": expected a map of node types");
        }
        Map<String, NodeType> types = new LinkedHashMap<>();
        entries.forEach((name, value) -> {
            if (!(value instanceof Map<?, ?> fields) || !(fields.get("vcpu") instanceof Number vcpu)
                    || !(fields.get("memoryGiB") instanceof Number memory) || !(fields.get("diskGiB") instanceof Number disk)) {
                throw new IllegalArgumentException(source + ": node type " + name + " needs vcpu, memoryGiB and diskGiB");
            }
            types.put(name.toString(), new NodeType(name.toString(), vcpu.intValue(), memory.doubleValue(), disk.doubleValue()));
        });
        return new NodeTypes(types);
    }
}
