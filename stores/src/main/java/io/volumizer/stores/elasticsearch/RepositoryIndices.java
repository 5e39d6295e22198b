package io.volumizer.stores.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;

/**
 * A repository's index as Elasticsearch holds it: an alias ({@link IndexNames#of}) over one generation, a concrete
 * index made from the repository template ({@link IndexNames#generation}). Readers and the index stage use the
 * alias; a reindex fills a new generation and moves the alias to it in one atomic request, keeping the old one for
 * a rollback until it is deleted.
 */
public final class RepositoryIndices {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter GENERATION = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmssSSS").withZone(ZoneOffset.UTC);

    private final RestClient client;
    private final IndexNames names;
    private final Map<String, IndexLayout> layouts;
    private final Clock clock;

    /** Every repository's index as the template makes it. */
    public RepositoryIndices(RestClient client, IndexNames names) {
        this(client, names, Map.of());
    }

    /** @param layouts each repository's layout over the template; a repository not in it has the template's */
    public RepositoryIndices(RestClient client, IndexNames names, Map<String, IndexLayout> layouts) {
        this(client, names, layouts, Clock.systemUTC());
    }

    RepositoryIndices(RestClient client, IndexNames names, Map<String, IndexLayout> layouts, Clock clock) {
        this.client = client;
        this.names = names;
        this.layouts = Map.copyOf(layouts);
        this.clock = clock;
    }

    private IndexLayout layout(String repository) {
        return layouts.getOrDefault(repository, IndexLayout.TEMPLATE);
    }

    public IndexNames names() {
        return names;
    }

    /** Makes sure the repository has an index: if its alias is new, a first generation with the alias on it. */
    public void ensure(String repository) throws IOException {
        if (exists(names.of(repository))) {
            return;
        }
        try {
            create(repository, settings(layout(repository)), true);
        } catch (ResponseException e) {
            if (!exists(names.of(repository))) { // not a writer of another subtask having made it meanwhile
                throw e;
            }
        }
    }

    /**
     * A new generation of the repository's index for a reindex to fill, without the alias: from the template and
     * the repository's layout, with bulk-load settings on top (no refresh, no replicas, translog synced in the
     * background); returns its name. {@link #finishLoad} puts the layout's settings back.
     */
    public String createForReindex(String repository) throws IOException {
        ObjectNode settings = settings(layout(repository)).put("refresh_interval", "-1").put("number_of_replicas", 0)
                .put("translog.durability", "async");
        return create(repository, settings, false);
    }

    /**
     * Ends a generation's bulk load: refresh and translog as the layout (or else the template) has them, the
     * replicas of the repository's current generation (else the layout's, else the template's), then a refresh so
     * that everything written is searchable before the alias moves to it.
     */
    public void finishLoad(String repository, String generation) throws IOException {
        IndexLayout layout = layout(repository);
        Optional<String> current = current(repository).filter(index -> !index.equals(generation));
        int replicas = current.isPresent() ? replicas(current.get())
                : layout.replicas() != null ? layout.replicas() : IndexTemplates.replicas();
        ObjectNode settings = JSON.createObjectNode().putNull("translog.durability").put("number_of_replicas", replicas);
        if (layout.refreshInterval() != null) {
            settings.put("refresh_interval", layout.refreshInterval());
        } else {
            settings.putNull("refresh_interval");
        }
        updateSettings(generation, settings);
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

    private int replicas(String index) throws IOException {
        Request request = new Request("GET", "/" + index + "/_settings/index.number_of_replicas");
        request.addParameter("include_defaults", "true");
        JsonNode settings = read(request).path(index);
        JsonNode replicas = settings.path("settings").path("index").path("number_of_replicas");
        if (replicas.isMissingNode()) {
            replicas = settings.path("defaults").path("index").path("number_of_replicas");
        }
        return replicas.asInt(0);
    }

    private String create(String repository, ObjectNode settings, boolean aliased) throws IOException {
        String index = names.generation(repository, GENERATION.format(clock.instant()));
        ObjectNode body = JSON.createObjectNode();
        body.set("settings", settings);
        if (aliased) {
            body.putObject("aliases").putObject(names.of(repository)).put("is_write_index", true);
        }
        Request request = new Request("PUT", "/" + index);
        request.setEntity(new NStringEntity(body.toString(), ContentType.APPLICATION_JSON));
        client.performRequest(request);
        return index;
    }

    /** The generation the repository's alias points to, if it has one. */
    public Optional<String> current(String repository) throws IOException {
        try {
            Iterator<String> indices = read(new Request("GET", "/_alias/" + names.of(repository))).fieldNames();
            return indices.hasNext() ? Optional.of(indices.next()) : Optional.empty();
        } catch (ResponseException e) {
            if (e.getResponse().getStatusLine().getStatusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** How many documents an index (or alias) holds, as last refreshed. */
    public long count(String index) throws IOException {
        return read(new Request("GET", "/" + index + "/_count")).path("count").asLong();
    }

    /** Every generation of the repository's index, oldest first. */
    public List<String> generations(String repository) throws IOException {
        Request request = new Request("GET", "/" + names.generations(repository) + "/_settings/index.provided_name");
        request.addParameter("allow_no_indices", "true");
        List<String> generations = new ArrayList<>();
        read(request).fieldNames().forEachRemaining(generations::add);
        generations.sort(null);
        return generations;
    }

    /**
     * Moves the repository's alias to {@code to} in one request: searches answer from the old generation until
     * then, and from the new one after. The old generation is kept (a rollback is a swap back to it); a plain index
     * under the alias's name, as index stages made before repositories had generations, is deleted in the same
     * request, since an alias cannot take an index's name.
     *
     * @return the generation the alias left, if it was on one
     */
    public Optional<String> swap(String repository, String to) throws IOException {
        Optional<String> from = current(repository);
        String alias = names.of(repository);
        ObjectNode body = JSON.createObjectNode();
        ArrayNode actions = body.putArray("actions");
        if (from.isPresent()) {
            if (from.get().equals(to)) {
                return Optional.empty();
            }
            actions.addObject().putObject("remove").put("index", from.get()).put("alias", alias);
        } else if (exists(alias)) {
            actions.addObject().putObject("remove_index").put("index", alias);
        }
        actions.addObject().putObject("add").put("index", to).put("alias", alias).put("is_write_index", true);
        Request request = new Request("POST", "/_aliases");
        request.setEntity(new NStringEntity(body.toString(), ContentType.APPLICATION_JSON));
        client.performRequest(request);
        return from;
    }

    private void updateSettings(String index, ObjectNode settings) throws IOException {
        Request request = new Request("PUT", "/" + index + "/_settings");
        request.setEntity(new NStringEntity(JSON.createObjectNode().set("index", settings).toString(),
                ContentType.APPLICATION_JSON));
        client.performRequest(request);
    }

    private void refresh(String index) throws IOException {
        client.performRequest(new Request("POST", "/" + index + "/_refresh"));
    }

    public void deleteGeneration(String index) throws IOException {
        client.performRequest(new Request("DELETE", "/" + index));
    }

    /**
     * Deletes every generation of the repository's index, and with them its alias; and a plain index of the alias's
     * name, as an index stage made them before repositories had generations.
     */
    public void delete(String repository) throws IOException {
        Request request = new Request("DELETE", "/" + names.generations(repository));
        request.addParameter("allow_no_indices", "true");
        request.addParameter("ignore_unavailable", "true");
        client.performRequest(request);
        if (exists(names.of(repository))) {
            client.performRequest(new Request("DELETE", "/" + names.of(repository)));
        }
    }

    /** The aliases of every repository of this prefix: what a search over all repositories reads. */
    public List<String> repositoryAliases() throws IOException {
        List<String> aliases = new ArrayList<>();
        for (JsonNode index : read(new Request("GET", "/_alias/" + names.all()))) {
            index.path("aliases").fieldNames().forEachRemaining(alias -> {
                if (alias.startsWith(names.prefix()) && !aliases.contains(alias)) {
                    aliases.add(alias);
                }
            });
        }
        aliases.sort(null);
        return aliases;
    }

    private boolean exists(String indexOrAlias) throws IOException {
        Response response = client.performRequest(new Request("HEAD", "/" + indexOrAlias));
        return response.getStatusLine().getStatusCode() == 200;
    }

    private JsonNode read(Request request) throws IOException {
        try (InputStream in = client.performRequest(request).getEntity().getContent()) {
            return JSON.readTree(in);
        }
    }
}
