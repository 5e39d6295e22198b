package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.domain.topology.Topology;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.stores.search.IndexLayout;

/**
 * A calibration whose costs follow the repository's size: a campaign run's folder ({@code run.json} and
 * {@code steps/*.json}, docs/operations/campaigns.md) read step by step into points (a cost at a size), each cost
 * fitted as a {@link SizeFunction}. What the campaign did not measure (the other index profiles, the bytes of each
 * type, Kafka's) stays the single-size calibration's.
 */
public final class CampaignCalibration {

    /** The campaign's repository has the default layout: its index and reindex stages are this profile's. */
    static final String CAMPAIGN_PROFILE = IndexLayout.TEMPLATE.profile().id();
    private static final List<String> INTERACTIVE = List.of(Calibration.NAVIGATION, Calibration.SEARCH_REQUESTS);
    private static final List<String> STORES = List.of(Calibration.MONGODB_DATA, Calibration.MONGODB_INDEXES,
            Calibration.SEARCH_PRIMARY);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Customers generated to weigh the calibration's types as the campaign's generated documents are. */
    private static final long MIX_SAMPLE_CUSTOMERS = 200;

    private final Calibration base;
    private final Map<String, Map<String, List<SizeFunction.Point>>> cpu = new TreeMap<>();
    private final Map<String, Map<String, List<SizeFunction.Point>>> requests = new TreeMap<>();
    private final Map<String, List<SizeFunction.Point>> bytes = new TreeMap<>();
    private final Map<String, List<SizeFunction.Point>> p95 = new TreeMap<>();
    /** The calibration's bytes a document in the campaign's mix, computed at the first step that has bytes. */
    private Map<String, Double> mix;

    private CampaignCalibration(Calibration base) {
        this.base = base;
    }

    /** {@code base} with a function of size for every cost the run in {@code folder} measured at its sizes. */
    public static Calibration of(Calibration base, Path folder) throws IOException {
        Path runFile = folder.resolve("run.json");
        Path steps = folder.resolve("steps");
        if (!Files.isRegularFile(runFile) || !Files.isDirectory(steps)) {
            throw new IllegalArgumentException(folder + " is not a campaign run's folder (run.json and steps/)");
        }
        JsonNode run = JSON.readTree(runFile.toFile());
        CampaignCalibration points = new CampaignCalibration(base);
        List<Path> files;
        try (Stream<Path> listed = Files.list(steps)) {
            files = listed.filter(file -> file.toString().endsWith(".json")).sorted().toList();
        }
        for (Path file : files) {
            points.step(JSON.readTree(file.toFile()));
        }
        String name = run.path("campaign").asText() + " " + run.path("runId").asText();
        Calibration.SizeCosts bySize = new Calibration.SizeCosts(name, fitted(points.cpu), fitted(points.requests),
                fittedEach(points.bytes), fittedEach(points.p95));
        if (bySize.functions().findAny().isEmpty()) {
            throw new IllegalArgumentException("campaign run " + folder + " has no step with a size and a cost");
        }
        String status = run.path("status").asText("unknown")
                + (run.hasNonNull("stoppedBecause") ? ", stopped because " + run.path("stoppedBecause").asText() : "");
        return base.with(base.types(), bySize, String.format(Locale.ROOT, "Costs as functions of the repository's "
                + "size fitted to campaign %s (%s, %d steps, %,.0f to %,.0f documents, on %s), each the least-squares "
                + "best of a constant, a + b·ln(n) and a·n^b; a step that adds documents is placed at its middle size, "
                + "CPU a request applies to each interactive scenario its measure step ran, and a step running several "
                + "stages splits each process's CPU in the single-size calibration's proportions; the stages are the "
                + "%s profile's, every type's bytes scaled by the campaign's bytes a document.", name, status,
                files.size(), bySize.functions().mapToDouble(SizeFunction::fromDocuments).min().orElse(0),
                bySize.functions().mapToDouble(SizeFunction::toDocuments).max().orElse(0), machine(run),
                CAMPAIGN_PROFILE));
    }

    private void step(JsonNode step) {
        JsonNode documents = step.path("documents");
        double size = documents.path("after").asDouble(step.path("size").path("documents").asDouble(0));
        if (!(size > 0)) {
            return;
        }
        String kind = step.path("kind").asText();
        List<String> stages = new ArrayList<>();
        step.path("rates").forEach(rate -> stages.add(stage(rate.path("stage").asText())));
        double middle = documents.has("before") ? (documents.path("before").asDouble() + size) / 2 : size;
        Map<String, Double> perDocument = new TreeMap<>();
        Map<String, Double> perRequest = new TreeMap<>();
        step.path("cpu").forEach(service -> {
            String process = process(service.path("service").asText());
            if (service.hasNonNull("msPerDocument")) {
                perDocument.merge(process, service.path("msPerDocument").asDouble() / 1000, Double::sum);
            }
            if (service.hasNonNull("msPerRequest")) {
                perRequest.merge(process, service.path("msPerRequest").asDouble() / 1000, Double::sum);
            }
        });
        if (!stages.isEmpty() && !perDocument.isEmpty() && !kind.equals("measure")) {
            double at = kind.equals("import") ? middle : size;
            perDocument.forEach((process, seconds) -> split(stages, process, seconds)
                    .forEach((stage, share) -> add(cpu, stage, process, at, share)));
        }
        List<String> scenarios = new ArrayList<>();
        step.path("latencies").forEach(latency -> {
            String scenario = latency.path("scenario").asText();
            if (INTERACTIVE.contains(scenario)) {
                scenarios.add(scenario);
                if (latency.hasNonNull("p95Ms")) {
                    p95.computeIfAbsent(scenario, k -> new ArrayList<>())
                            .add(new SizeFunction.Point(size, latency.path("p95Ms").asDouble()));
                }
            }
        });
        scenarios.forEach(scenario -> perRequest.forEach((process, seconds) -> add(requests, scenario, process, size,
                seconds)));
        JsonNode stored = step.path("bytesPerDocument");
        Map<String, Double> mix = mixBytes();
        STORES.forEach(store -> {
            if (stored.hasNonNull(store) && mix.get(store) > 0) {
                bytes.computeIfAbsent(store, k -> new ArrayList<>())
                        .add(new SizeFunction.Point(size, stored.path(store).asDouble() / mix.get(store)));
            }
        });
    }

    /** A campaign's stage as the calibration names it: index and reindex are a profile's. */
    private static String stage(String campaignStage) {
        return campaignStage.equals("import") ? "import" : campaignStage + "." + CAMPAIGN_PROFILE;
    }

    /** A campaign's service as the calibration's processes group them. */
    static String process(String service) {
        if (service.equals("elasticsearch") || service.equals("opensearch")) {
            return Calibration.SEARCH;
        }
        if (service.startsWith("flink")) {
            return Calibration.FLINK;
        }
        return service.equals("registry") ? Calibration.KAFKA : service;
    }

    /** A process's CPU in a step that ran {@code stages} at once, split in the single-size calibration's proportions. */
    private Map<String, Double> split(List<String> stages, String process, double seconds) {
        Map<String, Double> measured = new LinkedHashMap<>();
        stages.forEach(stage -> measured.put(stage, base.cpu().getOrDefault(stage, Map.of()).getOrDefault(process,
                0.0)));
        double sum = measured.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, Double> shares = new LinkedHashMap<>();
        measured.forEach((stage, cost) -> shares.put(stage, seconds * (sum > 0 ? cost / sum : 1.0 / stages.size())));
        return shares;
    }

    private static void add(Map<String, Map<String, List<SizeFunction.Point>>> points, String key, String process,
            double size, double value) {
        points.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(process, k -> new ArrayList<>())
                .add(new SizeFunction.Point(size, value));
    }

    /** Bytes a document in each store of the calibration's types, in the generator's mix (one repository). */
    private Map<String, Double> mixBytes() {
        if (mix == null) {
            DocumentShares shares = DocumentShares.of(Topology.single(GeneratorSettings.DEFAULT_REPOSITORY),
                    GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, MIX_SAMPLE_CUSTOMERS));
            mix = new LinkedHashMap<>(Map.of(Calibration.MONGODB_DATA, 0.0, Calibration.MONGODB_INDEXES, 0.0,
                    Calibration.SEARCH_PRIMARY, 0.0));
            shares.shares().get(GeneratorSettings.DEFAULT_REPOSITORY).forEach((type, share) -> {
                Calibration.TypeCosts costs = base.types().get(type);
                if (costs == null) {
                    throw new IllegalArgumentException("the calibration has no costs for documents of type " + type);
                }
                mix.merge(Calibration.MONGODB_DATA, share * costs.mongoDataBytes(), Double::sum);
                mix.merge(Calibration.MONGODB_INDEXES, share * costs.mongoIndexBytes(), Double::sum);
                mix.merge(Calibration.SEARCH_PRIMARY, share * costs.searchBytes().getOrDefault(CAMPAIGN_PROFILE, 0.0),
                        Double::sum);
            });
        }
        return mix;
    }

    private static Map<String, Map<String, SizeFunction>> fitted(Map<String, Map<String, List<SizeFunction.Point>>> points) {
        Map<String, Map<String, SizeFunction>> functions = new TreeMap<>();
        points.forEach((key, byProcess) -> functions.put(key, fittedEach(byProcess)));
        return functions;
    }

    private static Map<String, SizeFunction> fittedEach(Map<String, List<SizeFunction.Point>> points) {
        Map<String, SizeFunction> functions = new TreeMap<>();
        points.forEach((key, series) -> functions.put(key, SizeFunction.fit(series)));
        return functions;
    }

    private static String machine(JsonNode run) {
        JsonNode machine = run.path("machine");
        return machine.isMissingNode() ? "an unrecorded machine" : String.format(Locale.ROOT, "%d cores, %s",
                machine.path("cores").asInt(), machine.path("cpu").asText("unknown CPU"));
    }
}
