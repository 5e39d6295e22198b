package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a document costs, measured on one machine: what the planner multiplies.
 *
 * @param machine   where it was measured
 * @param types     per document type: its bytes in each store
 * @param cpu       per stage ({@code import}, {@code index.<profile>}, {@code reindex.<profile>}): CPU seconds a
 *                  document costs each process ({@code flink}, {@code mongodb}, {@code search}, {@code kafka})
 * @param kafkaBytesPerEvent per topic kind ({@code documents}, {@code imported}): bytes an event takes in Kafka's log
 */
public record Calibration(Machine machine, Map<String, TypeCosts> types, Map<String, Map<String, Double>> cpu,
        Map<String, Double> kafkaBytesPerEvent) {

    public static final String FLINK = "flink";
    public static final String MONGODB = "mongodb";
    public static final String SEARCH = "search";
    public static final String KAFKA = "kafka";

    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * @param cores        the cores the measuring processes shared
     * @param description  CPU model, memory, disks, as read from the machine
     * @param searchEngine the search engine and its version
     * @param measured     when (ISO-8601)
     */
    public record Machine(int cores, String description, String searchEngine, String measured) {
    }

    /**
     * @param mongoDataBytes  BSON bytes of a stored document (uncompressed)
     * @param mongoIndexBytes bytes of the collection's indexes per document
     * @param searchBytes     per index profile ({@code metadata}, {@code live}, {@code archive}): primary store bytes per
     *                        document, after a merge
     * @param blobBytes       bytes of the document's file (0: none)
     */
    public record TypeCosts(double mongoDataBytes, double mongoIndexBytes, Map<String, Double> searchBytes,
            double blobBytes) {
    }

    /** CPU seconds a document costs {@code process} in {@code stage}. */
    public double cpuSeconds(String stage, String process) {
        Double seconds = cpu.getOrDefault(stage, Map.of()).get(process);
        if (seconds == null) {
            throw new IllegalArgumentException("the calibration has no CPU cost of " + process + " in stage " + stage);
        }
        return seconds;
    }

    /** A stage's costs for a profile where it has its own ({@code index.live}), else the stage's ({@code index}). */
    public String stage(String stage, String profile) {
        String ofProfile = stage + "." + profile;
        return cpu.containsKey(ofProfile) ? ofProfile : stage;
    }

    public static Calibration read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), Calibration.class);
    }
}
