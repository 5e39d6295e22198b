package io.volumizer.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.volumizer.domain.topology.LiveTopology;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;

/**
 * A pipeline run of one repository of the live profile, every document routed to it ({@link LiveTopology}), with a
 * search engine client: what the tests of a live repository's files' text start from.
 */
public final class LiveRun implements AutoCloseable {

    /** The run's one repository. */
    public static final String REPOSITORY = "live";

    public final ScopedRun it;
    public final SearchEngine search;

    /** @param folder where the run's topology file is written */
    public LiveRun(Path folder) throws IOException {
        Path topology = Files.writeString(folder.resolve("live.yaml"), LiveTopology.yaml(REPOSITORY));
        it = new ScopedRun(JobsJar.path(), "--topology=" + topology);
        search = SearchEngines.open(it.pipeline.search);
    }

    /** Resets the repository's stores, closes the client and cancels the run's jobs. */
    @Override
    public void close() throws Exception {
        try {
            it.stores.reset(REPOSITORY);
        } finally {
            search.close();
            it.close();
        }
    }
}
