package io.volumizer.benchmarks.reliability;

import java.util.List;
import java.util.Locale;

import picocli.CommandLine;

/**
 * A fault and the jobs it is run against: every fault against import-and-index, those that act on a writer
 * against the separate import and index jobs too, those that act on a source or a job graph against the CSV
 * job reading beside import-and-index, and kills, outages and a backlog against import-and-index into a live
 * repository, whose files' text is read and written after the documents.
 */
record Scenario(Fault fault, Topology topology) {

    static final List<Scenario> ALL = java.util.stream.Stream.of(
            on(Topology.IMPORT_AND_INDEX, java.util.Arrays.stream(Fault.values())
                    .filter(fault -> fault != Fault.CLEAN && fault != Fault.FUZZ).toArray(Fault[]::new)),
            on(Topology.SEPARATE_JOBS, Fault.TASKMANAGER_KILLED, Fault.ELASTICSEARCH_DOWN, Fault.MONGODB_DOWN),
            on(Topology.CSV_IMPORT, Fault.TASKMANAGER_KILLED, Fault.JOBMANAGER_KILLED, Fault.KAFKA_KILLED,
                    Fault.TWO_OUTAGES, Fault.BACKLOG),
            on(Topology.LIVE_FILE_TEXT, Fault.TASKMANAGER_KILLED, Fault.ELASTICSEARCH_DOWN, Fault.TWO_OUTAGES,
                    Fault.BACKLOG),
            on(Topology.LIVE_TEXT_JOB, Fault.TASKMANAGER_KILLED, Fault.JOBMANAGER_KILLED,
                    Fault.ELASTICSEARCH_DOWN, Fault.TWO_OUTAGES, Fault.BACKLOG))
            .flatMap(List::stream).toList();
    /** {@code bench fuzz}: the clean baseline, then the same run fuzzed. */
    static final List<Scenario> FUZZING = List.of(new Scenario(Fault.CLEAN, Topology.IMPORT_AND_INDEX),
            new Scenario(Fault.FUZZ, Topology.IMPORT_AND_INDEX));
    static final List<Scenario> KNOWN = java.util.stream.Stream.concat(ALL.stream(), FUZZING.stream()).toList();

    private static List<Scenario> on(Topology topology, Fault... faults) {
        return java.util.Arrays.stream(faults).map(fault -> new Scenario(fault, topology)).toList();
    }

    /** {@code mongodb-down}, {@code mongodb-down-separate-jobs}, {@code kafka-killed-csv-import}. */
    String id() {
        return fault.name().toLowerCase(Locale.ROOT).replace('_', '-') + topology.idSuffix;
    }

    /** Whether the run's repository is live: its fault needs it ({@link Fault#readsFiles}), or its topology is. */
    boolean readsFiles() {
        return fault.readsFiles() || topology.live();
    }

    /** Scenarios on the command line, by their ids. */
    static final class ById implements CommandLine.ITypeConverter<Scenario>, Iterable<String> {
        @Override
        public Scenario convert(String id) {
            return KNOWN.stream().filter(scenario -> scenario.id().equals(id)).findFirst().orElseThrow(() ->
                    new CommandLine.TypeConversionException("unknown scenario '" + id + "'; scenarios: "
                            + String.join(", ", this)));
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return KNOWN.stream().map(Scenario::id).iterator();
        }
    }
}
