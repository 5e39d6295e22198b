package io.volumizer.domain.topology;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.mongodb.MongoLocation;

/**
 * The repositories of a bank and which documents go to which: loaded from a topology file ({@link TopologyFile})
 * and validated, so that every document has exactly one repository, the first rule that takes it. Every writer
 * routes with it; the readers look in all of its repositories.
 *
 * @param source       where it was loaded from, for messages
 * @param repositories the repositories, in the file's order
 * @param indexLayouts how each repository's index is laid out over the template (shards, routing...)
 * @param aliases      the repositories whose index alias has a name of its own (under the index prefix)
 * @param databases    the repositories that have a MongoDB location of their own (parts left out are the job's)
 * @param blobStores   the repositories that have a blob store of their own: a folder or {@code s3://bucket/prefix}
 * @param rules        the routing rules, in order; the last one takes every document
 */
public record Topology(String source, List<String> repositories, Map<String, IndexLayout> indexLayouts,
        Map<String, String> aliases, Map<String, MongoLocation> databases, Map<String, String> blobStores, List<RoutingRule> rules) implements Serializable {

    /** Today's layout: one repository, which every document goes to ({@code topologies/single.yaml}). */
    public static Topology single(String repository) {
        return new Topology("one repository '" + repository + "'", List.of(repository),
                Map.of(repository, IndexLayout.TEMPLATE), Map.of(), Map.of(), Map.of(),
                List.of(new RoutingRule(0, Set.of(), null, Set.of(), 0, repository)));
    }

    /**
     * Where to look for a document that is most likely in {@code repository}: there first, then in the others (a
     * parent, a child or an ancestor may be in another repository of the topology).
     */
    public static List<String> ownFirst(String repository, List<String> others) {
        List<String> repositories = new ArrayList<>(others.size() + 1);
        repositories.add(repository);
        others.stream().filter(other -> !other.equals(repository)).forEach(repositories::add);
        return repositories;
    }

    /**
     * The properties documents are routed by, each with why: those a routing rule reads, and those an index routes
     * documents to shards by. A document keeps them as created (documents are not moved between repositories or
     * shards), and takes its parent's where its parent has one, so that a customer's documents stay together, in
     * one repository and on one shard.
     */
    public Map<String, String> routingProperties() {
        Map<String, String> routing = new LinkedHashMap<>();
        for (RoutingRule rule : rules) {
            if (rule.property() != null) {
                routing.putIfAbsent(rule.property(), "the routing rule at " + source + ":" + rule.line()
                        + " sends documents to a repository by it");
            }
        }
        for (String repository : repositories) {
            String property = indexLayouts.getOrDefault(repository, IndexLayout.TEMPLATE).routing();
            if (property != null) {
                routing.putIfAbsent(property, "repository '" + repository + "' routes documents to its shards by it");
            }
        }
        return routing;
    }

    /**
     * The repository of a document.
     *
     * @param reference the present that documents' ages are measured from: now for a live write, the end of its
     *                  last period for a generated run (so that a run routes the same whenever it is generated)
     */
    public String route(DocumentEvent document, Instant reference) {
        for (RoutingRule rule : rules) {
            if (rule.takes(document, reference)) {
                return rule.repository();
            }
        }
        throw new IllegalStateException("no rule of " + source + " takes document " + document.getId()
                + ": its last rule should take every document");
    }
}
