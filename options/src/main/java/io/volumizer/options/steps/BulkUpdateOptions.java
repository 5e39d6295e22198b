package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.domain.selection.Selection;
import io.volumizer.domain.topology.Topology;
import io.volumizer.stores.PropertyValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Options of the bulk update job: which documents (the search API's filters), what to do to each (set properties,
 * or delete), and how the selection is read from Elasticsearch.
 */
@Command(name = "bulk-update", description = "Changes or deletes the documents a selection finds, as events on the "
        + "documents topic (the job of bin/volumizer bulk update, delete and route).",
        footer = {"%nExample:", "  bin/volumizer bulk update demo --type Statement --state TX \\",
            "    --set reviewed=yes"})
public final class BulkUpdateOptions extends CommandStepOptions {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What a bulk command does to each document it selects; route moves it if the topology's rules now send it to
     * another repository (archiving).
     */
    public enum Action { setProperties, delete, route }

    @Option(names = "--action", required = true, description = "setProperties, delete, or route (move the documents "
            + "that the topology's rules now send to another repository).")
    public Action action;

    @Option(names = "--filter", mapFallbackValue = "", description = "A filter of the selection, name=value: q, type, state, from, to (as the search API's).")
    public Map<String, String> filters = new LinkedHashMap<>();

    @Option(names = "--properties", defaultValue = "{}", description = "setProperties: the properties to set, a JSON object of names to scalar values (default: ${DEFAULT-VALUE}).")
    public String properties;

    @Option(names = "--slices", defaultValue = "4", description = "Slices of the selection, read in parallel: of one point in time where the search engine has them (OpenSearch), else each a scroll of its own (default: ${DEFAULT-VALUE}).")
    public int slices;

    @Option(names = "--scroll-size", defaultValue = "1000", description = "Documents per page of a slice (default: ${DEFAULT-VALUE}).")
    public int scrollSize;

    @Option(names = "--scroll-keep-alive", defaultValue = "PT5M", description = "How long a scroll or a point in time waits for its next page (default: ${DEFAULT-VALUE}).")
    public Duration scrollKeepAlive;

    /** The selection, as {@link Selection#parse} reads the filters. */
    public Selection selection() {
        return Selection.parse(filters);
    }

    /** The properties to set, as {@link PropertyValues#read} reads them. */
    public Map<String, Object> propertyValues() {
        try {
            return PropertyValues.read(JSON.readTree(properties));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--properties must be a JSON object, was '" + properties + "': " + e.getOriginalMessage());
        }
    }

    @Override
    protected void validateCommand() {
        selection();
        Map<String, Object> values = propertyValues();
        require(action != Action.setProperties || !values.isEmpty(), "--properties must name a property to set");
        require(action == Action.setProperties || values.isEmpty(), "--properties is for setProperties, not " + action);
        require(action != Action.route || pipeline.topology.topology().isPresent(), "--action route moves documents "
                + "that the topology's rules send to another repository: it needs --topology");
        Map<String, String> routing = pipeline.topology.topology().map(Topology::routingProperties).orElse(Map.of());
        for (String property : values.keySet()) {
            require(!routing.containsKey(property), "--properties: " + property + " cannot be changed: "
                    + routing.get(property));
        }
        require(slices >= 1 && slices <= 1024, "--slices must be between 1 and 1024, was " + slices);
        require(scrollSize >= 1 && scrollSize <= 10_000, "--scroll-size must be between 1 and 10000, was " + scrollSize);
        require(scrollKeepAlive.toSeconds() >= 1, "--scroll-keep-alive must be at least a second, was " + scrollKeepAlive);
    }
}
