package io.volumizer.benchmarks.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import io.volumizer.harness.BadInput;
import io.volumizer.harness.Saturation;
import io.volumizer.harness.Trigger;
import io.volumizer.harness.ServiceFaults;

/**
 * What happens to the local services during a scenario, through {@code bin/volumizer} and signals, as in
 * production: a process killed with SIGKILL and started again, a service stopped for an outage, the search engine
 * saturated. The search engine's faults act on the pipeline's engine, Elasticsearch or OpenSearch (scenarios keep
 * their ids). {@link #inject} returns the windows (start, end in epoch milliseconds) the fault lasted.
 */
enum Fault {

    TASKMANAGER_KILLED("TaskManager killed (kill -9) three times at random points, restarted") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            Random random = new Random(3);
            List<Double> points = new ArrayList<>(List.of(0.1 + 0.6 * random.nextDouble(), 0.1 + 0.6 * random.nextDouble(),
                    0.1 + 0.6 * random.nextDouble()));
            points.sort(null);
            List<long[]> windows = new ArrayList<>();
            for (double point : points) {
                trigger.await(point);
                windows.add(killed(faults, ServiceFaults.TASKMANAGER, () -> { }));
            }
            return windows;
        }
    },

    JOBMANAGER_KILLED("JobManager killed (kill -9), restarted, the job recovered from its newest retained checkpoint "
            + "(bin/volumizer job recover)") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            return List.of(killed(faults, ServiceFaults.JOBMANAGER, faults.recover()));
        }
    },

    KAFKA_KILLED("Kafka broker killed (kill -9), restarted") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            return List.of(killed(faults, "kafka", () -> { }));
        }
    },

    REGISTRY_DOWN("registry", "schema registry"),

    ELASTICSEARCH_DOWN("search engine down %d s") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            return List.of(outage(faults, faults.searchService()));
        }
    },

    ELASTICSEARCH_SATURATED("search engine saturated for %d s (a write queue of 2, other clients' bulk requests: 429s)") {
        /** A write queue of a few entries: the engine answers 429 as soon as a few bulk requests wait. */
        private static final Map<String, String> SMALL_WRITE_QUEUE = Map.of("ES_WRITE_QUEUE_SIZE", "2");

        @Override
        void prepare(Faults faults) {
            faults.services().stop(faults.searchService());
            faults.services().start(SMALL_WRITE_QUEUE, faults.searchService());
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            long start = System.currentTimeMillis();
            long rejected = Saturation.run(faults.options().search, faults.outage());
            System.out.printf(Locale.ROOT, "  %s rejected %,d write requests while saturated%n", faults.searchService(),
                    rejected);
            return List.of(new long[] {start, System.currentTimeMillis()});
        }

        @Override
        void restore(Faults faults) {
            faults.services().stop(faults.searchService());
            faults.services().start(faults.searchService());
        }
    },

    MONGODB_DOWN("mongodb", "MongoDB"),

    TWO_OUTAGES("search engine down %1$d s at 20%% of the documents imported, then MongoDB down %1$d s at 50%%") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await(0.2);
            long[] first = outage(faults, faults.searchService());
            trigger.await(0.5);
            return List.of(first, outage(faults, "mongodb"));
        }
    },

    BACKLOG("import stopped with a savepoint for %d s, then resumed from it, with a backlog read unevenly "
            + "(3 partitions, 2 readers)") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            long start = System.currentTimeMillis();
            faults.pause().run();
            return List.of(new long[] {start, System.currentTimeMillis()});
        }
    },

    RESCALED("import stopped with a savepoint at 20%% and resumed at parallelism " + Fault.RESCALED_UP + " (4 "
            + "partitions), a TaskManager killed at 40%%, stopped again at 60%% and resumed at parallelism 1") {
        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await(0.2);
            long[] up = rescaled(faults, RESCALED_UP);
            trigger.await(0.4);
            long[] killed = killed(faults, ServiceFaults.TASKMANAGER, () -> { });
            trigger.await(0.6);
            return List.of(up, killed, rescaled(faults, 1));
        }
    },

    BAD_INPUT("bad input: " + Math.round(ReliabilityBenchmark.BAD_SHARE * 100) + "%% of the statements replaced by "
            + "garbage bytes, unknown schema ids, orphans and crafted poisons (a JSON schema's id, a repository no store "
            + "may hold, version Long.MAX_VALUE, a blob key that does not parse); no restart over them"),

    /** The fuzzing run's baseline: the same documents, produced the same way, none spoiled. */
    CLEAN("no fault, no bad record: the fuzzing run's baseline"),

    FUZZ("fuzzing: " + Math.round(ReliabilityBenchmark.FUZZ_SHARE * 100) + "%% of the statements replaced by the bad "
            + "input's kinds, bits flipped, bodies cut short, and hostile valid documents (a title of 256 KiB, a name of "
            + "2,000 odd characters, 200 more properties, an uploaded PDF bomb) that must land; no restart over them");

    /** Whether the documents topic is filled with bad records among the documents (or none, as their baseline). */
    boolean isInput() {
        return this == BAD_INPUT || this == CLEAN || this == FUZZ;
    }

    /**
     * Whether the run's repository is live, its files' text read by the index (as the fuzzing run's PDF bomb needs),
     * its uploads kept in a blob store: the fuzzing run and its baseline, alike.
     */
    boolean readsFiles() {
        return this == CLEAN || this == FUZZ;
    }

    /** The kinds of bad record this fault injects, and the share of the statements they replace. */
    List<BadInput.Kind> badKinds() {
        return switch (this) {
            case BAD_INPUT -> BadInput.Kind.BAD_INPUT;
            case FUZZ -> BadInput.Kind.FUZZ;
            default -> List.of();
        };
    }

    double badShare() {
        return this == BAD_INPUT ? ReliabilityBenchmark.BAD_SHARE : this == FUZZ ? ReliabilityBenchmark.FUZZ_SHARE : 0;
    }

    /** The parallelism the rescaled scenario grows its jobs to, from the 2 they start at. */
    static final int RESCALED_UP = 4;
    static final int RESCALED_FROM = 2;

    /** What the fault is, for the results, as a format: {@code %d} stands for the outage's seconds. */
    private final String description;
    /** The service a plain outage stops for a while; null for the other faults. */
    private final String stoppedService;

    Fault(String description) {
        this.description = description;
        this.stoppedService = null;
    }

    /** An outage: {@code service} stopped for the scenario's outage, then started again; {@code name} in the results. */
    Fault(String service, String name) {
        this.description = name + " down %d s";
        this.stoppedService = service;
    }

    /** What the fault is, for the results. */
    String description(Duration outage) {
        return String.format(Locale.ROOT, description, outage.toSeconds());
    }

    /** Before the documents are generated and the jobs submitted. */
    void prepare(Faults faults) {
    }

    /** Waits for its moment, then does its harm; returns when each fault began and ended (bad input: none). */
    List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
        if (isInput()) {
            return List.of();
        }
        trigger.await();
        return List.of(outage(faults, stoppedService));
    }

    /** Stops {@code service} for the outage, then starts it again; returns when that was. */
    private static long[] outage(Faults faults, String service) throws InterruptedException {
        return new ServiceFaults(faults.services()).down(service, faults.outage());
    }

    /** Stops the jobs with a savepoint and resumes them from it at {@code parallelism}; returns when that was. */
    private static long[] rescaled(Faults faults, int parallelism) throws Exception {
        long start = System.currentTimeMillis();
        faults.rescale().to(parallelism);
        return new long[] {start, System.currentTimeMillis()};
    }

    /** After the scenario: the services as they were. */
    void restore(Faults faults) {
    }

    /** Kills a service (SIGKILL), starts it again, then does what it takes to carry on; returns when that was. */
    private static long[] killed(Faults faults, String service, Faults.Recovery then) throws Exception {
        long start = new ServiceFaults(faults.services()).kill(service)[0];
        then.run();
        return new long[] {start, System.currentTimeMillis()};
    }
}
