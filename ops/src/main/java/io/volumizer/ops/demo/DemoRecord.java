package io.volumizer.ops.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import io.volumizer.generators.GeneratorSettings;

/**
 * What a demo that reconciled recorded for the commands that continue on its repository ({@code bin/volumizer
 * loadtest}: the feeders compute ids and terms from its run's settings, and the import continues from its consumer
 * group). The file is {@code $STATE/demo.env}, one {@code KEY=VALUE} line per field: {@code DEMO_SEED},
 * {@code DEMO_CUSTOMERS}, {@code DEMO_STATEMENTS}, {@code DEMO_MEAN_ACCOUNTS}, {@code DEMO_LAST_PERIOD} (absent from
 * records older than it: the default period), {@code DEMO_REPOSITORY}, {@code DEMO_DOCUMENTS},
 * {@code DEMO_IMPORT_GROUP}, {@code DEMO_IMPORT_SAVEPOINT}, {@code DEMO_INDEX_SAVEPOINT}. It is data, read by Java
 * only; no shell sources it.
 *
 * @param run             the generated run's settings
 * @param documents       documents imported
 * @param importGroup     the import's consumer group: a later import of this group continues where the demo's stopped
 * @param importSavepoint the import job's savepoint
 * @param indexSavepoint  the index job's savepoint
 */
public record DemoRecord(GeneratorSettings run, long documents, String importGroup, String importSavepoint,
        String indexSavepoint) {

    public void write(Path file) throws IOException {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("DEMO_SEED", run.seed());
        fields.put("DEMO_CUSTOMERS", run.customers());
        fields.put("DEMO_STATEMENTS", run.statementsPerAccount());
        fields.put("DEMO_MEAN_ACCOUNTS", run.meanAccountsPerCustomer());
        fields.put("DEMO_LAST_PERIOD", run.lastPeriod());
        fields.put("DEMO_REPOSITORY", run.repository());
        fields.put("DEMO_DOCUMENTS", documents);
        fields.put("DEMO_IMPORT_GROUP", importGroup);
        fields.put("DEMO_IMPORT_SAVEPOINT", importSavepoint);
        fields.put("DEMO_INDEX_SAVEPOINT", indexSavepoint);
        Files.writeString(file, fields.entrySet().stream().map(field -> field.getKey() + "=" + field.getValue() + "\n")
                .collect(Collectors.joining()));
    }

    /**
     * @throws IllegalStateException when no demo recorded one, saying to run it
     * @throws IllegalArgumentException naming the file and the field that is missing or wrong
     */
    public static DemoRecord read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalStateException("no demo import recorded in " + file + "; run bin/volumizer demo first "
                    + "(this command uses its repository and settings)");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                fields.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
            }
        }
        Fields read = new Fields(file, fields);
        try {
            GeneratorSettings run = new GeneratorSettings(Long.parseLong(read.get("DEMO_SEED")),
                    Long.parseLong(read.get("DEMO_CUSTOMERS")), Integer.parseInt(read.get("DEMO_STATEMENTS")),
                    Double.parseDouble(read.get("DEMO_MEAN_ACCOUNTS")),
                    fields.containsKey("DEMO_LAST_PERIOD") ? YearMonth.parse(fields.get("DEMO_LAST_PERIOD"))
                            : GeneratorSettings.DEFAULT_LAST_PERIOD,
                    read.get("DEMO_REPOSITORY"));
            return new DemoRecord(run, Long.parseLong(read.get("DEMO_DOCUMENTS")), read.get("DEMO_IMPORT_GROUP"),
                    read.get("DEMO_IMPORT_SAVEPOINT"), read.get("DEMO_INDEX_SAVEPOINT"));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(file + ": not a demo record (" + e.getMessage() + ")", e);
        }
    }

    private record Fields(Path file, Map<String, String> values) {
        String get(String key) {
            String value = values.get(key);
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException(file + ": " + key + " is missing; run bin/volumizer demo again");
            }
            return value;
        }
    }
}
