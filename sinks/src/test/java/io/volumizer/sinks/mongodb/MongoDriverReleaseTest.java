package io.volumizer.sinks.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.mongodb.internal.connection.PowerOfTwoBufferPool;

class MongoDriverReleaseTest {

    @Test
    void theBufferPoolPrunerThreadEndsWhenTheJobsClassesAreReleased() throws InterruptedException {
        assertThat(PowerOfTwoBufferPool.DEFAULT).isNotNull(); // the first use starts the pruner
        assertThat(pruners()).as("pruner threads once the pool is used").isPositive();

        MongoDriverRelease.stopBufferPoolPruner();

        for (int attempt = 0; attempt < 100 && pruners() > 0; attempt++) {
            Thread.sleep(100);
        }
        assertThat(pruners()).isZero();
    }

    private static long pruners() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("BufferPoolPruner")).count();
    }
}
