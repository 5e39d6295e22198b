package io.volumizer.stores.search.elasticsearch;

import static io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine.JSON;
import static io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine.request;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.elasticsearch.client.Request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchWriter;

/**
 * The repositories' indices as Elasticsearch holds them: aliases over generations, made from an index template
 * ({@value #REPOSITORY_TEMPLATE}: a fulltext analyzer of standard tokens, lower case and ASCII folding, so "Crème
 * BRÛLÉE" is found by "creme brulee"; keywords for ids, types and states; dates; numbers; no fielddata on text).
 */
final class Elasticsearch7Indices implements SearchIndices {

    static final String REPOSITORY_TEMPLATE = "repository-template.json";
    private static final DateTimeFormatter GENERATION = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmssSSS").withZone(ZoneOffset.UTC);

    private final Elasticsearch7Engine engine;
    private final IndexNames names;
    private final Map<String, IndexLayout> layouts;

    /** @param layouts each repository's layout over the template; a repository not in it has the template's */
    Elasticsearch7Indices(Elasticsearch7Engine engine, IndexNames names, Map<String, IndexLayout> layouts) {
        this.engine = engine;
        this.names = names;
        this.layouts = Map.copyOf(layouts);
    }

    Elasticsearch7Engine engine() {
        return engine;
    }

    IndexLayout layout(String repository) {
        return layouts.getOrDefault(repository, IndexLayout.TEMPLATE);
    }

    @Override
    public IndexNames names() {
        return names;
    }

    @Override
    public void installTemplate() throws SearchException {
        Request request = new Request("PUT", "/_index_template/" + names.template());
        request.setJsonEntity(repositoryTemplate(names.all()));
        engine.send(request);
    }

    /** The repository template for indices named by {@code pattern}. */
    static String repositoryTemplate(String pattern) {
        try (InputStream in = Elasticsearch7Indices.class.getResourceAsStream(REPOSITORY_TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException(REPOSITORY_TEMPLATE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${pattern}", pattern);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The replicas the template gives a repository's index. */
    private static int templateReplicas() {
        try {
            return JSON.readTree(repositoryTemplate("*")).path("template").path("settings").path("number_of_replicas")
                    .asInt(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes sure the repository has an index: if its alias is new, a first generation with the alias on it. Safe
     * when writers of several subtasks race to make it.
     */
    void ensure(String repository) throws SearchException {
        if (exists(names.of(repository))) {
            return;
        }
        try {
            create(repository, settings(layout(repository)), true);
        } catch (SearchException e) {
            if (e.kind() == SearchException.Kind.UNREACHABLE || !exists(names.of(repository))) {
                throw e; // not a writer of another subtask having made it meanwhile
            }
        }
    }

    @Override
    public String createForReindex(String repository) throws SearchException {
        ObjectNode settings = settings(layout(repository)).put("refresh_interval", "-1").put("number_of_replicas", 0)
                .put("translog.durability", "async");
        return create(repository, settings, false);
    }

    @Override
    public void finishLoad(String repository, String generation) throws SearchException {
        IndexLayout layout = layout(repository);
        Optional<String> current = current(repository).filter(index -> !index.equals(generation));
        int replicas = current.isPresent() ? replicas(current.get())
                : layout.replicas() != null ? layout.replicas() : templateReplicas();
        ObjectNode settings = JSON.createObjectNode().putNull("translog.durability").put("number_of_replicas", replicas);
        if (layout.refreshInterval() != null) {
            settings.put("refresh_interval", layout.refreshInterval());
        } else {
            settings.putNull("refresh_interval");
        }
        engine.send(request("PUT", "/" + generation + "/_settings", JSON.createObjectNode().set("index", settings)));
        refresh(generation);
    }

    /** The index settings a layout sets, for a new generation. */
    private static ObjectNode settings(IndexLayout layout) {
        ObjectNode settings = JSON.createObjectNode();
        if (layout.shards() != null) {
            settings.put("number_of_shards", layout.shards());
        }
        if (layout.replicas() != null) {
            settings.put("number_of_replicas", layout.replicas());
        }
        if (layout.refreshInterval() != null) {
            settings.put("refresh_interval", layout.refreshInterval());
        }
        if (layout.codec() != null) {
            settings.put("codec", layout.codec());
        }
        return settings;
    }

    private int replicas(String index) throws SearchException {
        Request request = new Request("GET", "/" + index + "/_settings/index.number_of_replicas");
        request.addParameter("include_defaults", "true");
        JsonNode settings = engine.read(request).path(index);
        JsonNode replicas = settings.path("settings").path("index").path("number_of_replicas");
        if (replicas.isMissingNode()) {
            replicas = settings.path("defaults").path("index").path("number_of_replicas");
        }
        return replicas.asInt(0);
    }

    private String create(String repository, ObjectNode settings, boolean aliased) throws SearchException {
        String index = names.generation(repository, GENERATION.format(Instant.now()));
        ObjectNode body = JSON.createObjectNode();
        body.set("settings", settings);
        if (aliased) {
            body.putObject("aliases").putObject(names.of(repository)).put("is_write_index", true);
        }
        engine.send(request("PUT", "/" + index, body));
        return index;
    }

    @Override
    public Optional<String> current(String repository) throws SearchException {
        try {
            Iterator<String> indices = engine.read(new Request("GET", "/_alias/" + names.of(repository))).fieldNames();
            return indices.hasNext() ? Optional.of(indices.next()) : Optional.empty();
        } catch (SearchException e) {
            if (e.kind() == SearchException.Kind.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public List<String> generations(String repository) throws SearchException {
        Request request = new Request("GET", "/" + names.generations(repository) + "/_settings/index.provided_name");
        request.addParameter("allow_no_indices", "true");
        List<String> generations = new ArrayList<>();
        engine.read(request).fieldNames().forEachRemaining(generations::add);
        generations.sort(null);
        return generations;
    }

    @Override
    public Optional<String> swap(String repository, String generation) throws SearchException {
        Optional<String> from = current(repository);
        String alias = names.of(repository);
        ObjectNode body = JSON.createObjectNode();
        ArrayNode actions = body.putArray("actions");
        if (from.isPresent()) {
            if (from.get().equals(generation)) {
                return Optional.empty();
            }
            actions.addObject().putObject("remove").put("index", from.get()).put("alias", alias);
        } else if (exists(alias)) {
            actions.addObject().putObject("remove_index").put("index", alias);
        }
        actions.addObject().putObject("add").put("index", generation).put("alias", alias).put("is_write_index", true);
        engine.send(request("POST", "/_aliases", body));
        return from;
    }

    @Override
    public void deleteGeneration(String generation) throws SearchException {
        engine.send(new Request("DELETE", "/" + generation));
    }

    @Override
    public void delete(String repository) throws SearchException {
        deleteMatching(names.generations(repository));
        if (exists(names.of(repository))) {
            engine.send(new Request("DELETE", "/" + names.of(repository)));
        }
    }

    @Override
    public void deleteAll() throws SearchException {
        deleteMatching(names.all());
    }

    private void deleteMatching(String pattern) throws SearchException {
        Request request = new Request("DELETE", "/" + pattern);
        request.addParameter("allow_no_indices", "true");
        request.addParameter("ignore_unavailable", "true");
        engine.send(request);
    }

    @Override
    public boolean exists(String indexOrAlias) throws SearchException {
        // A HEAD request's 404 is an answer, not an error, to the client.
        return engine.send(new Request("HEAD", "/" + indexOrAlias)).getStatusLine().getStatusCode() == 200;
    }

    @Override
    public List<String> repositories() throws SearchException {
        List<String> aliases = new ArrayList<>();
        for (JsonNode index : engine.read(new Request("GET", "/_alias/" + names.all()))) {
            index.path("aliases").fieldNames().forEachRemaining(alias -> {
                if (alias.startsWith(names.prefix()) && !aliases.contains(alias)) {
                    aliases.add(alias);
                }
            });
        }
        aliases.sort(null);
        return aliases.stream().map(names::repositoryOf).toList();
    }

    @Override
    public void refresh(String indexOrAlias) throws SearchException {
        engine.send(new Request("POST", "/" + indexOrAlias + "/_refresh"));
    }

    @Override
    public Map<String, String> settings(String generation) throws SearchException {
        Request request = new Request("GET", "/" + generation + "/_settings");
        request.addParameter("flat_settings", "true");
        Map<String, String> settings = new TreeMap<>();
        engine.read(request).path(generation).path("settings").fields()
                .forEachRemaining(setting -> settings.put(setting.getKey(), setting.getValue().asText()));
        return settings;
    }

    @Override
    public StoredSize mergedPrimarySize(String indexOrAlias) throws SearchException {
        Request merge = new Request("POST", "/" + indexOrAlias + "/_forcemerge");
        merge.addParameter("max_num_segments", "1");
        engine.send(merge);
        refresh(indexOrAlias);
        // The merged segment's files are counted once the merge's old files are let go, which the engine does after it
        // answers (OpenSearch once reported 171 bytes for 300 documents): the size is read until two reads agree.
        StoredSize size = primarySize(indexOrAlias);
        for (int reads = 1; reads < 10; reads++) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            StoredSize again = primarySize(indexOrAlias);
            if (again.equals(size)) {
                break;
            }
            size = again;
        }
        return size;
    }

    @Override
    public StoredSize primarySize(String indexOrAlias) throws SearchException {
        JsonNode primaries = engine.read(new Request("GET", "/" + indexOrAlias + "/_stats/docs,store"))
                .path("_all").path("primaries");
        return new StoredSize(primaries.path("docs").path("count").asLong(),
                primaries.path("store").path("size_in_bytes").asLong());
    }

    @Override
    public SearchWriter writer(Backoff backoff) {
        return new Elasticsearch7Writer(this, backoff, null);
    }
}
