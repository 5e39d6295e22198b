package io.volumizer.benchmarks.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class FaultTest {

    @Test
    void eachFaultNamesItselfInTheResultsWithTheOutageWhereItLasts() {
        Duration outage = Duration.ofSeconds(45);
        assertThat(Fault.MONGODB_DOWN.description(outage)).isEqualTo("MongoDB down 45 s");
        assertThat(Fault.ELASTICSEARCH_DOWN.description(outage)).isEqualTo("search engine down 45 s");
        assertThat(Fault.ELASTICSEARCH_SATURATED.description(outage))
                .isEqualTo("search engine saturated for 45 s (a write queue of 2, other clients' bulk requests: 429s)");
        assertThat(Fault.KAFKA_KILLED.description(outage)).isEqualTo("Kafka broker killed (kill -9), restarted");
        assertThat(Fault.BAD_INPUT.description(outage)).isEqualTo("bad input: 1% of the statements replaced by garbage "
                + "bytes, unknown schema ids, orphans and crafted poisons (a JSON schema's id, a repository no store may "
                + "hold, version Long.MAX_VALUE, a blob key that does not parse); no restart over them");
        assertThat(Fault.TWO_OUTAGES.description(outage)).isEqualTo("search engine down 45 s at 20% of the documents "
                + "imported, then MongoDB down 45 s at 50%");
        assertThat(Fault.BACKLOG.description(outage)).startsWith("import stopped with a savepoint for 45 s, then resumed");
        assertThat(Fault.RESCALED.description(outage)).isEqualTo("import stopped with a savepoint at 20% and resumed at "
                + "parallelism 4 (4 partitions), a TaskManager killed at 40%, stopped again at 60% and resumed at "
                + "parallelism 1");
    }
}
