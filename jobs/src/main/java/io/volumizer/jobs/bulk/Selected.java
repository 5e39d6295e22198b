package io.volumizer.jobs.bulk;

/** A document a bulk command selected: its id and the version the selection saw (a Flink POJO). */
public final class Selected {

    public String id;
    public long version;

    public Selected() {
    }

    Selected(String id, long version) {
        this.id = id;
        this.version = version;
    }
}
