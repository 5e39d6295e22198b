package io.volumizer.jobs.csv;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.jobs.csv.source.CsvRow;
import io.volumizer.generators.cli.CsvExport;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;

/**
 * What a CSV row says a document is. Two layouts, told apart by their header: the generator's export
 * ({@link CsvExport#HEADER}: ids, parent ids, typed properties as one JSON column) and nuxeo-csv's conventions
 * (a {@code name} whose {@code /} builds the tree, a {@code type}, any other column a property, a blob by a path
 * relative to a folder in {@value #FILE_COLUMN}). A row without an id gets one from its repository and path, so a
 * folder and the rows under it agree on it without a lookup; a row without a parent id names its parent by path,
 * which {@link ParentPaths} finds among the repository's folders.
 */
public final class CsvDocuments {

    /** nuxeo-csv's blob column: a path relative to the import's blobs folder. */
    public static final String FILE_COLUMN = "file:content";
    private static final Set<String> COLUMNS = Set.of(CsvExport.HEADER);
    private static final Pattern TYPE = Pattern.compile("[A-Z][A-Za-z0-9_]{0,63}");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CSVFormat FORMAT = CSVFormat.RFC4180;

    /** A row's document, with what the job resolves after: its parent's path and its blob's file, if any. */
    public record Parsed(DocumentEvent.Builder document, Optional<String> parentPath, Optional<String> blobFile) {
    }

    private final String repository;
    private final Instant importTime;
    private final Map<String, List<String>> headers = new HashMap<>();

    /**
     * @param repository the repository every row goes to
     * @param importTime a row's created and modified time when it has none: the job's, so a replay makes the same document
     */
    public CsvDocuments(String repository, Instant importTime) {
        this.repository = repository;
        this.importTime = importTime;
    }

    /** The row's document, or why it has none. */
    public Parsed parse(CsvRow row) throws InvalidRowException {
        List<String> header = headers.computeIfAbsent(row.header, text -> {
            try {
                return fields(text);
            } catch (InvalidRowException e) {
                return List.of();
            }
        });
        if (!header.contains("name") || !header.contains("type")) {
            throw new InvalidRowException("the file's header has no 'name' and 'type' columns: " + row.header);
        }
        List<String> values = fields(row.text);
        if (values.size() != header.size()) {
            throw new InvalidRowException(values.size() + " columns where the header has " + header.size()
                    + (values.size() > header.size() ? ": too many columns" : ": too few columns"));
        }
        Map<String, String> columns = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            columns.put(header.get(i), values.get(i));
        }
        return parse(columns, row);
    }

    private Parsed parse(Map<String, String> columns, CsvRow row) throws InvalidRowException {
        String type = columns.get("type");
        if (!TYPE.matcher(type).matches()) {
            throw new InvalidRowException("bad type '" + type + "': a type is a capitalized name of letters and digits");
        }
        String path = columns.get("name");
        if (path.isEmpty() || path.startsWith("/") || path.endsWith("/") || path.contains("//")) {
            throw new InvalidRowException("bad name '" + path + "': a name is a path of non-empty segments joined by /");
        }
        int slash = path.lastIndexOf('/');
        String name = path.substring(slash + 1);
        String id = blankToNull(columns.get("id"));
        String parentId = blankToNull(columns.get("parentId"));
        Optional<String> parentPath = Optional.empty();
        if (!columns.containsKey("parentId") && !type.equals("Root")) {
            parentPath = Optional.of(slash < 0 ? "" : path.substring(0, slash));
        }
        Instant created = instant(columns, "created");
        Instant modified = instant(columns, "modified");
        DocumentEvent.Builder document = DocumentEvent.newBuilder()
                .setOperation(operation(columns.get("operation")))
                .setRepository(repository)
                .setId(id != null ? id : pathId(repository, path))
                .setParentId(parentId)
                .setType(type).setName(name)
                .setTitle(Optional.ofNullable(blankToNull(columns.get("title"))).orElse(name))
                .setCreated(created).setModified(modified).setEventTime(modified)
                .setVersion(number(columns, "version", 1))
                .setProperties(properties(columns))
                .setOrigin(Origin.newBuilder().setSource("csv").setIndex(row.line).setFile(row.file).build());
        String blobKey = blankToNull(columns.get("blobKey"));
        if (blobKey != null) {
            document.setBlob(BlobRef.newBuilder().setKey(blobKey).setMimeType(columns.getOrDefault("blobMimeType", ""))
                    .setFilename(columns.getOrDefault("blobFilename", "")).build());
        }
        return new Parsed(document, parentPath, Optional.ofNullable(blankToNull(columns.get(FILE_COLUMN))));
    }

    /** The id of a row without one: from its repository and path, the same wherever it is computed. */
    public static String pathId(String repository, String path) {
        return UUID.nameUUIDFromBytes((repository + ":" + path).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The typed properties: the generator's JSON column, or each column that is not one of the known ones, as
     * text (nuxeo-csv's {@code dc:description}).
     */
    private static Map<String, Object> properties(Map<String, String> columns) throws InvalidRowException {
        Map<String, Object> properties = new LinkedHashMap<>();
        String json = columns.get("properties");
        if (json != null && !json.isBlank()) {
            JsonNode object;
            try {
                object = JSON.readTree(json);
            } catch (JsonProcessingException e) {
                throw new InvalidRowException("unparseable value of 'properties': not JSON (" + e.getOriginalMessage() + ")");
            }
            if (!object.isObject()) {
                throw new InvalidRowException("unparseable value of 'properties': not a JSON object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                properties.put(field.getKey(), typed(field.getKey(), field.getValue()));
            }
        }
        for (Map.Entry<String, String> column : columns.entrySet()) {
            if (!COLUMNS.contains(column.getKey()) && !column.getKey().equals(FILE_COLUMN) && !column.getValue().isEmpty()) {
                properties.put(column.getKey(), column.getValue());
            }
        }
        return properties;
    }

    private static Object typed(String name, JsonNode value) throws InvalidRowException {
        if (value.isNull()) {
            return null;
        } else if (value.isBoolean()) {
            return value.booleanValue();
        } else if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        } else if (value.isNumber()) {
            return value.doubleValue();
        } else if (value.isTextual()) {
            return value.textValue();
        }
        throw new InvalidRowException("unparseable value of property '" + name + "': " + value.getNodeType()
                + " is not a boolean, number or text");
    }

    private Instant instant(Map<String, String> columns, String column) throws InvalidRowException {
        String value = blankToNull(columns.get(column));
        if (value == null) {
            return importTime;
        }
        try {
            return value.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(value)) : Instant.parse(value);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new InvalidRowException("unparseable value of '" + column + "': '" + value
                    + "' is no ISO-8601 instant nor epoch milliseconds");
        }
    }

    private static long number(Map<String, String> columns, String column, long otherwise) throws InvalidRowException {
        String value = blankToNull(columns.get(column));
        try {
            return value == null ? otherwise : Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new InvalidRowException("unparseable value of '" + column + "': '" + value + "' is not a whole number");
        }
    }

    private static Operation operation(String value) throws InvalidRowException {
        if (value == null || value.isEmpty()) {
            return Operation.CREATE;
        }
        try {
            return Operation.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRowException("unparseable value of 'operation': '" + value + "' is not CREATE, UPDATE or DELETE");
        }
    }

    private static List<String> fields(String text) throws InvalidRowException {
        try (CSVParser parser = CSVParser.parse(new StringReader(text), FORMAT)) {
            List<CSVRecord> records = parser.getRecords();
            if (records.size() != 1) {
                throw new InvalidRowException("not one CSV row: " + records.size());
            }
            return records.get(0).toList();
        } catch (IOException | java.io.UncheckedIOException | IllegalStateException e) {
            throw new InvalidRowException("unparseable row: " + e.getMessage());
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
