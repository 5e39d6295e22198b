package io.volumizer.options.endpoints;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The local services' endpoints, as {@code bin/volumizer up} writes them from {@code conf/volumizer.conf} into the
 * state folder's {@value #FILE} (the tests' failsafe reads the same file): loaded into system properties, which the
 * endpoint options take their defaults from ({@code ${sys:volumizer.kafka.bootstrap}}...). A property already set
 * ({@code -D}) wins over the file.
 */
public final class LocalEndpoints {

    public static final String FILE = "endpoints.properties";
    /** The search engine the endpoints' {@value #SEARCH_URL} is of, elasticsearch or opensearch. */
    public static final String SEARCH_ENGINE = "volumizer.search.engine";
    /** The chosen engine's URL: the file holds each engine's, as {@code volumizer.search.url.<engine>}. */
    public static final String SEARCH_URL = "volumizer.search.url";

    private LocalEndpoints() {
    }

    /**
     * Loads {@code <state>/endpoints.properties} into the system properties not set yet; {@code searchEngine} (null:
     * the file's) picks the search URL. Without the file (services never started) nothing is set.
     */
    public static void load(Path state, String searchEngine) {
        Path file = state.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return;
        }
        Properties endpoints = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            endpoints.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        endpoints.forEach((key, value) -> {
            if (System.getProperty((String) key) == null) {
                System.setProperty((String) key, (String) value);
            }
        });
        String engine = searchEngine != null ? searchEngine : System.getProperty(SEARCH_ENGINE);
        String url = System.getProperty(SEARCH_URL + "." + engine);
        if (url == null) {
            throw new IllegalArgumentException("unknown search engine '" + engine + "' (--search elasticsearch or opensearch)");
        }
        System.setProperty(SEARCH_ENGINE, engine);
        if (searchEngine != null || System.getProperty(SEARCH_URL) == null) {
            System.setProperty(SEARCH_URL, url);
        }
    }
}
