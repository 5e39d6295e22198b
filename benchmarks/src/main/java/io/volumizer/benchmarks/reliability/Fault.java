package io.volumizer.benchmarks.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * What happens to the local services during a scenario, through {@code bin/volumizer} and signals, as in
 * production: a process killed with SIGKILL and started again, a service stopped for an outage, Elasticsearch
 * saturated. {@link #inject} returns the windows (start, end in epoch milliseconds) the fault lasted.
 */
enum Fault {

    TASKMANAGER_KILLED {
        @Override
        String description(Duration outage) {
            return "TaskManager killed (kill -9) three times at random points, restarted";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            Random random = new Random(3);
            List<Double> points = new ArrayList<>(List.of(0.1 + 0.6 * random.nextDouble(), 0.1 + 0.6 * random.nextDouble(),
                    0.1 + 0.6 * random.nextDouble()));
            points.sort(null);
            List<long[]> windows = new ArrayList<>();
            for (double point : points) {
                trigger.await(point);
                windows.add(killed(faults, "flink-taskmanager", () -> { }));
            }
            return windows;
        }
    },

    JOBMANAGER_KILLED {
        @Override
        String description(Duration outage) {
            return "JobManager killed (kill -9), restarted, the job recovered from its newest retained checkpoint "
                    + "(bin/volumizer job recover)";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            return List.of(killed(faults, "flink-jobmanager", faults.recover()));
        }
    },

    KAFKA_KILLED {
        @Override
        String description(Duration outage) {
            return "Kafka broker killed (kill -9), restarted";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            return List.of(killed(faults, "kafka", () -> { }));
        }
    },

    REGISTRY_DOWN {
        @Override
        String description(Duration outage) {
            return "schema registry down " + outage.toSeconds() + " s";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            return outage(faults, trigger, "registry");
        }
    },

    ELASTICSEARCH_DOWN {
        @Override
        String description(Duration outage) {
            return "Elasticsearch down " + outage.toSeconds() + " s";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            return outage(faults, trigger, "elasticsearch");
        }
    },

    ELASTICSEARCH_SATURATED {
        /** A write queue of a few entries: Elasticsearch answers 429 as soon as a few bulk requests wait. */
        private static final Map<String, String> SMALL_WRITE_QUEUE = Map.of("ES_WRITE_QUEUE_SIZE", "2");

        @Override
        String description(Duration outage) {
            return "Elasticsearch saturated for " + outage.toSeconds() + " s (a write queue of 2, other clients' bulk"
                    + " requests: 429s)";
        }

        @Override
        void prepare(Faults faults) {
            faults.services().stop("elasticsearch");
            faults.services().start(SMALL_WRITE_QUEUE, "elasticsearch");
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            trigger.await();
            long start = System.currentTimeMillis();
            long rejected = Saturation.run(faults.options().search, faults.outage());
            System.out.printf(Locale.ROOT, "  Elasticsearch rejected %,d write requests while saturated%n", rejected);
            return List.of(new long[] {start, System.currentTimeMillis()});
        }

        @Override
        void restore(Faults faults) {
            faults.services().stop("elasticsearch");
            faults.services().start("elasticsearch");
        }
    },

    MONGODB_DOWN {
        @Override
        String description(Duration outage) {
            return "MongoDB down " + outage.toSeconds() + " s";
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) throws Exception {
            return outage(faults, trigger, "mongodb");
        }
    },

    BAD_INPUT {
        @Override
        String description(Duration outage) {
            return String.format(Locale.ROOT, "bad input: %.0f%% of the statements replaced by garbage bytes, unknown "
                    + "schema ids and orphans", ReliabilityBenchmark.BAD_SHARE * 100);
        }

        @Override
        List<long[]> inject(Faults faults, Trigger trigger) {
            return List.of();
        }
    };

    /** What the fault is, for the results. */
    abstract String description(Duration outage);

    /** Before the documents are generated and the jobs submitted. */
    void prepare(Faults faults) {
    }

    /** Waits for its moment, then does its harm; returns when each fault began and ended. */
    abstract List<long[]> inject(Faults faults, Trigger trigger) throws Exception;

    /** After the scenario: the services as they were. */
    void restore(Faults faults) {
    }

    /** Kills a service (SIGKILL), starts it again, then does what it takes to carry on; returns when that was. */
    private static long[] killed(Faults faults, String service, Faults.Recovery then) throws Exception {
        long start = System.currentTimeMillis();
        faults.services().kill(service);
        faults.services().start(service);
        then.run();
        return new long[] {start, System.currentTimeMillis()};
    }

    private static List<long[]> outage(Faults faults, Trigger trigger, String service) throws Exception {
        trigger.await();
        long start = System.currentTimeMillis();
        faults.services().stop(service);
        Thread.sleep(faults.outage().toMillis());
        faults.services().start(service);
        return List.of(new long[] {start, System.currentTimeMillis()});
    }
}
