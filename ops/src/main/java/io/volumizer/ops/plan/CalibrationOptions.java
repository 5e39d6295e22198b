package io.volumizer.ops.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Option;

/**
 * Where a plan's costs come from: a calibration, made size-aware by a campaign run; shared by
 * {@code bin/volumizer plan} and {@code bin/volumizer bench plan-vs-published}.
 */
public final class CalibrationOptions {

    /** The calibration committed with the code (benchmarks/results/calibration.md says where it was measured). */
    public static final String COMMITTED_CALIBRATION = "benchmarks/results/calibration.json";
    /**
     * The security benchmark's results: its throughput of search and navigation requests is what a request costs
     * where no campaign measured it.
     */
    static final String SECURITY_RESULTS = "benchmarks/results/security.json";

    @Option(names = "--calibration", description = "Costs per document, as JSON, as bin/volumizer bench calibrate "
            + "writes them (default: the committed one, " + COMMITTED_CALIBRATION + ").")
    Path calibration;

    @Option(names = "--campaign", paramLabel = "RUN_DIR", description = "A campaign run's results folder: each cost "
            + "it measured at several repository sizes becomes a function of the size, evaluated at the size planned "
            + "(the other costs stay the calibration's).")
    Path campaign;

    /** The calibration asked for, read under the checkout {@code root} where no file is named. */
    public Calibration load(Path root) throws IOException {
        Calibration costs = Calibration.read(calibration != null ? calibration : root.resolve(COMMITTED_CALIBRATION));
        return campaign != null ? CampaignCalibration.of(costs, campaign) : costs;
    }

    /**
     * {@code costs} with, for a scenario it has no cost of a request for, the security benchmark's closed-loop
     * throughput on the calibration's machine: every core busy, all of a request's CPU counted on each store it reads
     * (search: the search engine; navigation: MongoDB, and the search engine for children's pages). An upper bound:
     * the API and the load's client shared those cores.
     */
    public static Calibration withAssumedRequestCosts(Calibration costs, Path root) throws IOException {
        Path security = root.resolve(SECURITY_RESULTS);
        if (costs.hasRequestCosts(Calibration.NAVIGATION) && costs.hasRequestCosts(Calibration.SEARCH_REQUESTS)
                || !Files.isRegularFile(security)) {
            return costs;
        }
        JsonNode kinds = new ObjectMapper().readTree(security.toFile()).path("kinds");
        int cores = costs.machine().cores();
        double search = cores / kinds.path("search").path("branch").path("perSecond").asDouble();
        double navigation = cores / kinds.path("navigation").path("branch").path("perSecond").asDouble();
        Map<String, Map<String, Double>> assumed = new LinkedHashMap<>(costs.requestCpu());
        assumed.putIfAbsent(Calibration.SEARCH_REQUESTS, Map.of(Calibration.SEARCH, search));
        assumed.putIfAbsent(Calibration.NAVIGATION, Map.of(Calibration.MONGODB, navigation, Calibration.SEARCH,
                navigation));
        return costs.withRequestCpu(assumed, String.format(Locale.ROOT, "CPU a request, not measured by the "
                + "calibration: the security benchmark's (%s) closed-loop throughput on the calibration's %d cores, "
                + "%.2f ms a search request (on the search engine) and %.2f ms a navigation request (on MongoDB and on "
                + "the search engine each), every core busy and all of it counted on the stores: an upper bound at the "
                + "benchmark's repository size, not a function of size.", SECURITY_RESULTS, cores, search * 1000,
                navigation * 1000));
    }
}
