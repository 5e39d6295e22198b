package io.volumizer.ops.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The runners' one report writer: {@code <name>.json} (the figures, read by the results' scripts) and {@code <name>.md}. */
public final class Report {

    /** Indented, as the committed results are. */
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Report() {
    }

    /** The day of a measure, as every report states it. */
    public static String date() {
        return LocalDate.now().toString();
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** {@code 2 cores, every service on this machine}. */
    public static String machine() {
        return cores() + " cores, every service on this machine";
    }

    /** Writes both files into {@code folder} (created when missing). */
    public static void write(Path folder, String name, Object figures, CharSequence markdown) throws IOException {
        writeJson(folder, name, figures);
        Files.writeString(folder.resolve(name + ".md"), markdown);
    }

    /** Writes the figures alone: their table is another report's. */
    public static void writeJson(Path folder, String name, Object figures) throws IOException {
        Files.createDirectories(folder);
        JSON.writeValue(folder.resolve(name + ".json").toFile(), figures);
    }
}
