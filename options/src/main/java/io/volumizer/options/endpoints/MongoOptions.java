package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/**
 * Where the repositories' database is (a picocli mixin): one collection per repository. A connection string with
 * credentials is a secret: it comes from the environment ({@value #URI_ENV}, set from a Kubernetes Secret by the
 * chart), and an option taken from the environment is never written into a job's arguments ({@code
 * Options.arguments}).
 */
public final class MongoOptions {

    public static final String URI_ENV = "VOLUMIZER_MONGODB_URI";
    /** The database of a deployment that names none (the chart's services.mongodb.database too). */
    public static final String DEFAULT_DATABASE = "volumizer";

    @Option(names = "--mongodb-uri", defaultValue = "${env:" + URI_ENV + ":-mongodb://127.0.0.1:27017}",
            description = "MongoDB connection string (default: $" + URI_ENV + ", else mongodb://127.0.0.1:27017).")
    public String uri;

    @Option(names = "--mongodb-database", defaultValue = DEFAULT_DATABASE, description = "Database of the repositories (default: ${DEFAULT-VALUE}).")
    public String database;
}
