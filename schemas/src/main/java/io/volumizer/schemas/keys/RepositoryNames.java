package io.volumizer.schemas.keys;

/**
 * What a repository may be called: its name is also a MongoDB collection name and part of Elasticsearch index
 * names, so every writer and reader checks it with this one rule.
 */
public final class RepositoryNames {

    /** 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit. */
    public static final String PATTERN = "[a-z0-9][a-z0-9_-]{0,63}";
    public static final String RULE = "1-64 lower-case letters, digits, '-' or '_'";
    /** Checked for every document the import reads: compiled once. */
    private static final java.util.regex.Pattern COMPILED = java.util.regex.Pattern.compile(PATTERN);

    private RepositoryNames() {
    }

    public static boolean isValid(String repository) {
        return repository != null && COMPILED.matcher(repository).matches();
    }
}
