package io.volumizer.stores.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

/** Two API replicas, their clocks a minute apart, allocating versions on the local MongoDB-protocol server. */
class VersionAllocatorIT {

    private final MongoClient client = MongoClients.create(System.getProperty("volumizer.mongodb.uri"));
    private final String database = "it_" + UUID.randomUUID().toString().replace("-", "");
    private final MongoRepositories repositories = MongoRepositories.sharing(client, database);

    @AfterEach
    void cleanUp() {
        client.getDatabase(database).drop();
        client.close();
    }

    @Test
    void versionsIncreaseAcrossReplicasWhoseClocksDisagree() {
        Instant now = Instant.now();
        VersionAllocator ahead = new VersionAllocator(repositories, Clock.fixed(now.plus(Duration.ofMinutes(1)), ZoneOffset.UTC));
        VersionAllocator behind = new VersionAllocator(repositories, Clock.fixed(now, ZoneOffset.UTC));

        List<Long> versions = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            versions.add((i % 2 == 0 ? ahead : behind).next("bank", 0));
        }

        assertThat(versions).as("each later than the one before, whichever replica wrote it").isSorted()
                .doesNotHaveDuplicates();
        assertThat(versions.get(0)).as("a time in microseconds, like the versions of generated documents")
                .isGreaterThan(now.toEpochMilli() * 1000);
    }

    @Test
    void aVersionIsAboveTheStoredOneAndRepositoriesCountApart() {
        VersionAllocator allocator = new VersionAllocator(repositories, Clock.systemUTC());
        long far = Instant.now().plus(Duration.ofDays(365)).toEpochMilli() * 1000;

        assertThat(allocator.next("bank", far)).isEqualTo(far + 1);
        assertThat(allocator.next("archive", 0)).isLessThan(far);
    }
}
