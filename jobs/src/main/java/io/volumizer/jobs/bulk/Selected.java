package io.volumizer.jobs.bulk;

/** A document a bulk command selected: its id and the version the selection saw (a record, a Flink POJO). */
public record Selected(String id, long version) {
}
