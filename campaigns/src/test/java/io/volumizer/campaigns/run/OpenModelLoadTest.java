package io.volumizer.campaigns.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class OpenModelLoadTest {

    @Test
    void requestsAnsweredWronglyOrNotAtAllAreErrorsAndTheMeasureStillEnds() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        OpenModelLoad.Scenario mixed = new OpenModelLoad.Scenario("mixed", 20, random -> {
            int kind = random.nextInt(3);
            if (kind == 1) {
                throw new IllegalStateException("a wrong answer");
            } else if (kind == 2) {
                never.await(); // a store that does not answer
            }
        });

        OpenModelLoad.Result result = OpenModelLoad.run(List.of(mixed), Duration.ofSeconds(1), 7, Duration.ofMillis(500))
                .get(0);
        never.countDown();

        assertThat(result.requests()).isEqualTo(20);
        assertThat(result.unanswered()).isPositive();
        assertThat(result.errors()).isGreaterThan(result.unanswered());
        assertThat(result.sortedNanos().length + result.errors()).isEqualTo(20);
        assertThat(Arrays.stream(result.sortedNanos()).min().orElse(1)).isPositive();
    }
}
