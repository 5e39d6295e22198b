package io.volumizer.loadtest;

import java.util.ArrayList;
import java.util.List;

import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.Options;
import io.volumizer.options.steps.Step;

/** What a load-test session does, in order: the actions {@link LoadTestSession} carries out for a simulation. */
final class SessionPlan {

    /** The requests of the mixed simulation that its comparison is about: the reads. */
    static final List<String> MIXED_READS = List.of("get document", "children", "next children page", "ancestors",
            "get parent", "blob");
    /** One step of a session. */
    interface Action {
    }

    /** Submits a step to the session cluster, with the pipeline's options and these; stopped at the end. */
    record StartJob(Step step, List<String> arguments) implements Action {
    }

    /** A run of the simulation whose summary is named for its label. */
    record Run(String simulation, String label) implements Action {
    }

    /** A run whose only purpose is to warm the API up (compiled code, connection pools); its results are dropped. */
    record WarmUp(String simulation) implements Action {
    }

    /** Starts a reindex of the repository, then runs on while it goes. */
    record StartReindex(String repository) implements Action {
    }

    /** Waits until the reindex ends and records its final status. */
    record AwaitReindex() implements Action {
    }

    /** Sets the run's summary beside the baseline's: the change of each request's p95 (all requests: none listed). */
    record Compare(String baseline, String run, List<String> requests, String out) implements Action {
    }

    /** What a session does for a simulation, in order, on the demo's repository. */
    static List<Action> plan(String simulation, GeneratorSettings demo, String importGroup, double importRate,
            long importCustomers) {
        StartJob importing = new StartJob(Step.IMPORT_AND_INDEX, List.of("--group-id", importGroup));
        return switch (simulation) {
            case "crud", "smoke" -> List.of(importing, new Run(simulation, ""));
            case "mixed" -> List.of(importing, new Run("mixed", "baseline"),
                    new StartJob(Step.GENERATE, moreCustomers(demo, importRate, importCustomers)),
                    new Run("mixed", "importing"),
                    new Compare("mixed-baseline", "mixed-importing", MIXED_READS, "mixed"));
            case "reindex" -> List.of(new WarmUp("navigation"), new Run("navigation", "baseline"),
                    new StartReindex(demo.repository()), new Run("navigation", "reindexing"), new AwaitReindex(),
                    new Compare("navigation-baseline", "navigation-reindexing", List.of(), "navigation-reindex"));
            default -> List.of(new Run(simulation, ""));
        };
    }

    /** The generate job that adds customers after the demo's, at a capped rate. */
    private static List<String> moreCustomers(GeneratorSettings demo, double importRate, long importCustomers) {
        List<String> args = new ArrayList<>(customers(demo, demo.customers(), importCustomers));
        args.addAll(List.of("--max-docs-per-second", Double.toString(importRate)));
        return args;
    }

    /** The generate job's arguments for {@code count} customers of the demo's run from customer {@code from}. */
    static List<String> customers(GeneratorSettings demo, long from, long count) {
        GeneratorSettings more = new GeneratorSettings(demo.seed(), from + count, demo.statementsPerAccount(),
                demo.meanAccountsPerCustomer(), demo.lastPeriod(), demo.repository());
        List<String> args = new ArrayList<>(runArguments(more));
        args.addAll(List.of("--from-customer", Long.toString(from)));
        return args;
    }

    /** The options that name the demo's run, which the feeders compute ids and terms from. */
    static List<String> runArguments(GeneratorSettings demo) {
        return Options.arguments(GeneratorOptions.of(demo));
    }

    private SessionPlan() {
    }
}
