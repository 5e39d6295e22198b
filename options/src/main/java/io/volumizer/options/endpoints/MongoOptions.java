package io.volumizer.options.endpoints;

import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Where the repositories' database is (a picocli mixin): one collection per repository. A connection string with
 * credentials is a secret: it comes from the environment ({@value #URI_ENV}, set from a Kubernetes Secret by the
 * chart), and an option taken from the environment is never written into a job's arguments ({@code
 * Options.arguments}); one with a password given as an option is refused, since a job's arguments are shown in
 * the Flink Web UI.
 */
public final class MongoOptions {

    public static final String URI_ENV = "VOLUMIZER_MONGODB_URI";
    /** The database of a deployment that names none (the chart's services.mongodb.database too). */
    public static final String DEFAULT_DATABASE = "volumizer";
    /** {@code mongodb[+srv]://user:password@...}: user information with a password, before the hosts. */
    private static final Pattern WITH_PASSWORD = Pattern.compile("^[A-Za-z0-9+.-]+://[^/@?#]*:[^/@?#]*@.*");

    @Option(names = "--mongodb-uri", defaultValue = "${env:" + URI_ENV + ":-${sys:volumizer.mongodb.uri:-}}",
            converter = NoPassword.class,
            description = "MongoDB connection string, without a password (default: $" + URI_ENV
                    + ", which may hold one, else the local MongoDB's, from the endpoints file of bin/volumizer up).")
    public String uri;

    @Option(names = "--mongodb-database", defaultValue = DEFAULT_DATABASE, description = "Database of the repositories (default: ${DEFAULT-VALUE}).")
    public String database;

    /** Whether a connection string holds a password. */
    static boolean hasPassword(String uri) {
        return WITH_PASSWORD.matcher(uri).matches();
    }

    /**
     * Refuses a connection string with a password unless it is the environment's (picocli converts the default too);
     * an empty one, the default without the environment's or the endpoints file's, is none.
     */
    static final class NoPassword implements ITypeConverter<String> {
        @Override
        public String convert(String uri) {
            if (uri.isEmpty()) {
                return null;
            }
            if (hasPassword(uri) && !uri.equals(System.getenv(URI_ENV))) {
                throw new TypeConversionException("a connection string with a password is a secret, and job arguments "
                        + "are shown in the Flink Web UI: set $" + URI_ENV + " in the environment instead");
            }
            return uri;
        }
    }
}
