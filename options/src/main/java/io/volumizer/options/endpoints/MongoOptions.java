package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where the repositories' database is (a picocli mixin): one collection per repository. */
public final class MongoOptions {

    @Option(names = "--mongodb-uri", defaultValue = "mongodb://127.0.0.1:27017", description = "MongoDB (default: ${DEFAULT-VALUE}).")
    public String uri;

    @Option(names = "--mongodb-database", defaultValue = "volumizer", description = "Database of the repositories (default: ${DEFAULT-VALUE}).")
    public String database;
}
