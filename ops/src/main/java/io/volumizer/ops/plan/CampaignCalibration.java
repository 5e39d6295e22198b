package io.volumizer.ops.plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.volumizer.domain.topology.Topology;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;
import io.volumizer.stores.search.IndexLayout;

/**
 * A calibration whose costs follow the repository's size: a campaign run's folder ({@link RunFolder}) read step by step into points (a cost at a size), each cost
 * fitted as a {@link SizeFunction}. What the campaign did not measure (the other index profiles, the bytes of each
 * type, Kafka's) stays the single-size calibration's.
 */
public final class CampaignCalibration {

    /** The campaign's repository has the default layout: its index and reindex stages are this profile's. */
    static final String CAMPAIGN_PROFILE = IndexLayout.TEMPLATE.profile().id();
    private static final List<String> INTERACTIVE = List.of(Calibration.NAVIGATION, Calibration.SEARCH_REQUESTS);
    private static final List<String> STORES = List.of(Calibration.MONGODB_DATA, Calibration.MONGODB_INDEXES,
            Calibration.SEARCH_PRIMARY);
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
    public static Calibration of(Calibration base, Path folder) {
        RunFolder run = RunFolder.read(folder);
        CampaignCalibration points = new CampaignCalibration(base);
        run.steps().forEach(points::step);
        String name = run.label();
        Calibration.SizeCosts bySize = new Calibration.SizeCosts(name, fitted(points.cpu), fitted(points.requests),
                fittedEach(points.bytes), fittedEach(points.p95));
        if (bySize.functions().findAny().isEmpty()) {
            throw new IllegalArgumentException("campaign run " + folder + " has no step with a size and a cost");
        }
        CampaignRun described = run.run();
        String status = (described.status() != null ? described.status() : "unknown")
                + (described.stoppedBecause() != null ? ", stopped because " + described.stoppedBecause() : "");
        return base.with(base.types(), bySize, String.format(Locale.ROOT, "Costs as functions of the repository's "
                + "size fitted to campaign %s (%s, %d steps, %,.0f to %,.0f documents, on %s), each the least-squares "
                + "best of a constant, a + b·ln(n) and a·n^b; a step that adds documents is placed at its middle size, "
                + "CPU a request applies to each interactive scenario its measure step ran, and a step running several "
                + "stages splits each process's CPU in the single-size calibration's proportions; the stages are the "
                + "%s profile's, every type's bytes scaled by the campaign's bytes a document.", name, status,
                run.steps().size(), bySize.functions().mapToDouble(SizeFunction::fromDocuments).min().orElse(0),
                bySize.functions().mapToDouble(SizeFunction::toDocuments).max().orElse(0), machine(described),
                CAMPAIGN_PROFILE));
    }

    private void step(StepResult step) {
        Long after = step.repositoryDocuments();
        double size = after == null ? 0 : after;
        if (!(size > 0)) {
            return;
        }
        List<String> stages = step.rates().stream().map(rate -> stage(rate.stage())).toList();
        Long before = step.documents() == null ? null : step.documents().before();
        double middle = before != null ? (before + size) / 2 : size;
        Map<String, Double> perDocument = new TreeMap<>();
        Map<String, Double> perRequest = new TreeMap<>();
        step.cpu().forEach(service -> {
            String process = process(service.service());
            if (service.msPerDocument() != null) {
                perDocument.merge(process, service.msPerDocument() / 1000, Double::sum);
            }
            if (service.msPerRequest() != null) {
                perRequest.merge(process, service.msPerRequest() / 1000, Double::sum);
            }
        });
        if (!stages.isEmpty() && !perDocument.isEmpty() && !"measure".equals(step.kind())) {
            double at = "import".equals(step.kind()) ? middle : size;
            perDocument.forEach((process, seconds) -> split(stages, process, seconds)
                    .forEach((stage, share) -> add(cpu, stage, process, at, share)));
        }
        List<String> scenarios = new ArrayList<>();
        step.latencies().stream().filter(latency -> INTERACTIVE.contains(latency.scenario())).forEach(latency -> {
            scenarios.add(latency.scenario());
            if (latency.p95Ms() != null) {
                p95.computeIfAbsent(latency.scenario(), k -> new ArrayList<>())
                        .add(new SizeFunction.Point(size, latency.p95Ms()));
            }
        });
        scenarios.forEach(scenario -> perRequest.forEach((process, seconds) -> add(requests, scenario, process, size,
                seconds)));
        Map<String, Double> stored = step.bytesPerDocument() == null ? Map.of() : step.bytesPerDocument().byStore();
        Map<String, Double> mix = mixBytes();
        STORES.forEach(store -> {
            if (stored.containsKey(store) && mix.get(store) > 0) {
                bytes.computeIfAbsent(store, k -> new ArrayList<>())
                        .add(new SizeFunction.Point(size, stored.get(store) / mix.get(store)));
            }
        });
    }

    /** A campaign's stage as the calibration names it: index and reindex are a profile's. */
    private static String stage(String campaignStage) {
        return "import".equals(campaignStage) ? "import" : campaignStage + "." + CAMPAIGN_PROFILE;
    }

    /** A campaign's service as the calibration's processes group them. */
    static String process(String service) {
        if ("elasticsearch".equals(service) || "opensearch".equals(service)) {
            return Calibration.SEARCH;
        }
        if (service != null && service.startsWith("flink")) {
            return Calibration.FLINK;
        }
        return "registry".equals(service) ? Calibration.KAFKA : service;
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

    private static String machine(CampaignRun run) {
        CampaignRun.RunMachine machine = run.machine();
        return machine == null ? "an unrecorded machine" : String.format(Locale.ROOT, "%d cores, %s",
                machine.cores() == null ? 0 : machine.cores(), machine.cpu() != null ? machine.cpu() : "unknown CPU");
    }
}
