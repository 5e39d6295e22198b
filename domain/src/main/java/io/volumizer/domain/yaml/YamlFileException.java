package io.volumizer.domain.yaml;

/** What is wrong with a YAML file read through {@link YamlNodes}, with the line and the field it is at. */
public class YamlFileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final int line;
    private final String field;

    protected YamlFileException(String source, int line, String field, String problem) {
        super(source + (line > 0 ? ":" + line : "") + (field.isEmpty() ? "" : ": " + field) + ": " + problem);
        this.line = line;
        this.field = field;
    }

    /** The line in the file, counted from 1; 0 where the whole file is wrong. */
    public int line() {
        return line;
    }

    /** The field's path in the file, like {@code routing[2].to}; empty where the whole file is wrong. */
    public String field() {
        return field;
    }
}
