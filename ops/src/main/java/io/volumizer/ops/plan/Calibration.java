package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonCreator;
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
 * @param requestCpu per interactive scenario ({@code navigation}, {@code search}): CPU seconds a request costs each
 *                   process (none: not measured)
 * @param bySize     the costs measured at several sizes, as functions of the repository's size; a cost without a
 *                   function is the constant above (null: every cost is)
 * @param sources    where the figures come from, when not all from one measure on {@link #machine}: said with a plan
 */
public record Calibration(Machine machine, Map<String, TypeCosts> types, Map<String, Map<String, Double>> cpu,
        Map<String, Double> kafkaBytesPerEvent, Map<String, Map<String, Double>> requestCpu, SizeCosts bySize,
        List<String> sources) {

    public static final String FLINK = "flink";
    public static final String MONGODB = "mongodb";
    public static final String SEARCH = "search";
    public static final String KAFKA = "kafka";
    /** The interactive scenarios the planner sizes for. */
    public static final String NAVIGATION = "navigation";
    public static final String SEARCH_REQUESTS = "search";
    /** The stores whose bytes a document grow with size ({@link SizeCosts#bytesScale}), named as a campaign names them. */
    public static final String MONGODB_DATA = "mongodbData";
    public static final String MONGODB_INDEXES = "mongodbIndexes";
    public static final String SEARCH_PRIMARY = "searchPrimary";

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

    /**
     * Costs as functions of the repository's size, fitted to a campaign's steps ({@link SizeFunction}).
     *
     * @param campaign    the campaign run they were fitted to
     * @param cpu         per stage and process: CPU seconds a document
     * @param requestCpu  per interactive scenario and process: CPU seconds a request
     * @param bytesScale  per store ({@link #MONGODB_DATA}, {@link #MONGODB_INDEXES}, {@link #SEARCH_PRIMARY}): the
     *                    campaign's bytes a document over the calibration's types' bytes in the campaign's mix, by
     *                    which every type's bytes in that store are multiplied
     * @param p95Millis   per interactive scenario: the campaign's p95 latency at its measured rate
     */
    public record SizeCosts(String campaign, Map<String, Map<String, SizeFunction>> cpu,
            Map<String, Map<String, SizeFunction>> requestCpu, Map<String, SizeFunction> bytesScale,
            Map<String, SizeFunction> p95Millis) {
        @JsonCreator
        public SizeCosts {
            cpu = cpu == null ? Map.of() : cpu;
            requestCpu = requestCpu == null ? Map.of() : requestCpu;
            bytesScale = bytesScale == null ? Map.of() : bytesScale;
            p95Millis = p95Millis == null ? Map.of() : p95Millis;
        }

        Stream<SizeFunction> functions() {
            return Stream.of(cpu.values().stream().flatMap(m -> m.values().stream()),
                    requestCpu.values().stream().flatMap(m -> m.values().stream()), bytesScale.values().stream(),
                    p95Millis.values().stream()).flatMap(s -> s);
        }
    }

    private static final SizeCosts CONSTANT = new SizeCosts(null, null, null, null, null);

    @JsonCreator
    public Calibration {
        requestCpu = requestCpu == null ? Map.of() : requestCpu;
        bySize = bySize == null ? CONSTANT : bySize;
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** A calibration measured at one size on one machine ({@code bin/volumizer bench calibrate}). */
    public Calibration(Machine machine, Map<String, TypeCosts> types, Map<String, Map<String, Double>> cpu,
            Map<String, Double> kafkaBytesPerEvent) {
        this(machine, types, cpu, kafkaBytesPerEvent, null, null, null);
    }

    /** CPU seconds a document costs {@code process} in {@code stage} in a repository of {@code documents}. */
    public double cpuSeconds(String stage, String process, double documents) {
        SizeFunction function = bySize.cpu().getOrDefault(stage, Map.of()).get(process);
        if (function != null) {
            return Math.max(0, function.at(documents));
        }
        Double seconds = cpu.getOrDefault(stage, Map.of()).get(process);
        if (seconds == null) {
            throw new IllegalArgumentException("the calibration has no CPU cost of " + process + " in stage " + stage);
        }
        return seconds;
    }

    /** Whether the calibration knows what a request of {@code scenario} costs. */
    public boolean hasRequestCosts(String scenario) {
        return requestCpu.containsKey(scenario) || bySize.requestCpu().containsKey(scenario);
    }

    /** CPU seconds a request of {@code scenario} costs {@code process} in a repository of {@code documents}. */
    public double requestCpuSeconds(String scenario, String process, double documents) {
        if (!hasRequestCosts(scenario)) {
            throw new IllegalArgumentException("the calibration has no CPU cost of a " + scenario + " request: "
                    + "calibrate from a campaign with a measure step (--campaign)");
        }
        SizeFunction function = bySize.requestCpu().getOrDefault(scenario, Map.of()).get(process);
        return function != null ? Math.max(0, function.at(documents))
                : requestCpu.getOrDefault(scenario, Map.of()).getOrDefault(process, 0.0);
    }

    /** What a type's bytes in {@code store} are multiplied by in a repository of {@code documents} (1: constant). */
    public double bytesScale(String store, double documents) {
        SizeFunction function = bySize.bytesScale().get(store);
        return function != null ? Math.max(0, function.at(documents)) : 1;
    }

    /** The largest repository a size-dependent cost was measured at (0: every cost is a constant). */
    public double largestMeasuredDocuments() {
        return bySize.functions().mapToDouble(SizeFunction::toDocuments).max().orElse(0);
    }

    /** This calibration with other types' bytes and size functions, and one more source. */
    Calibration with(Map<String, TypeCosts> otherTypes, SizeCosts otherBySize, String source) {
        List<String> more = new ArrayList<>(sources);
        more.add(source);
        return new Calibration(machine, otherTypes, cpu, kafkaBytesPerEvent, requestCpu, otherBySize, more);
    }

    /** This calibration with what requests cost where it has none, and where those figures come from. */
    Calibration withRequestCpu(Map<String, Map<String, Double>> assumed, String source) {
        List<String> more = new ArrayList<>(sources);
        more.add(source);
        return new Calibration(machine, types, cpu, kafkaBytesPerEvent, assumed, bySize, more);
    }

    /** A stage's costs for a profile where it has its own ({@code index.live}), else the stage's ({@code index}). */
    public String stage(String stage, String profile) {
        String ofProfile = stage + "." + profile;
        return cpu.containsKey(ofProfile) || bySize.cpu().containsKey(ofProfile) ? ofProfile : stage;
    }

    public static Calibration read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), Calibration.class);
    }
}
