package io.volumizer.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.volumizer.api.internal.ApiMetrics;

/** Refusals and their waits, with a recording sleeper and a clock the test moves: no time is measured. */
class AuthenticationTest {

    private final List<Duration> waits = new ArrayList<>();
    private Instant now = Instant.parse("2026-11-24T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    };
    private final Authentication authentication = new Authentication(TokenValidatorTest.VALIDATOR,
            new FailedAuthentications(Duration.ofMillis(100), Duration.ofSeconds(1), clock), waits::add,
            new ApiMetrics(), Set.of("/health/live"), 1);

    @Test
    void aValidBearerTokenAuthenticatesWithoutWaiting() throws Exception {
        assertThat(authentication.authenticate("Bearer " + TokenValidatorTest.token(claims -> { }), "10.0.0.1").name())
                .isEqualTo("staff-ca-1");
        assertThat(authentication.authenticate("bearer " + TokenValidatorTest.token(claims -> { }), "10.0.0.1").name())
                .as("the scheme's case does not matter").isEqualTo("staff-ca-1");
        assertThat(waits).isEmpty();
    }

    @Test
    void noTokenIsAChallengeWithoutAnErrorAnInvalidOneNamesTheError() {
        assertThatThrownBy(() -> authentication.authenticate(null, "10.0.0.1"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class,
                        e -> assertThat(e.challenge).isEqualTo("Bearer realm=\"volumizer\""));
        assertThatThrownBy(() -> authentication.authenticate("Basic YWRtaW46YWRtaW4=", "10.0.0.1"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class,
                        e -> assertThat(e.challenge).isEqualTo("Bearer realm=\"volumizer\""));
        assertThatThrownBy(() -> authentication.authenticate("Bearer guess", "10.0.0.1"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class, e -> assertThat(e.challenge)
                        .startsWith("Bearer realm=\"volumizer\", error=\"invalid_token\", error_description=\""));
    }

    @Test
    void eachFurtherFailureOfAnAddressWaitsTwiceAsLongUpToTheLongestWait() throws Exception {
        for (int i = 0; i < 6; i++) {
            refuse("10.0.0.1");
        }
        refuse("10.0.0.2");

        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(100));
    }

    @Test
    void anAddressThatStoppedFailingIsForgotten() throws Exception {
        refuse("10.0.0.1");
        refuse("10.0.0.1");
        now = now.plus(FailedAuthentications.FORGOTTEN_AFTER).plusSeconds(1);
        refuse("10.0.0.1");

        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(100));
    }

    @Test
    void pastTheRefusalsThatMayWaitAtOnceARefusalAnswersAtOnceWithoutItsVerdict() throws Exception {
        CountDownLatch waitingOne = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Authentication blocking = new Authentication(TokenValidatorTest.VALIDATOR,
                new FailedAuthentications(Duration.ofMillis(100), Duration.ofSeconds(1), clock), duration -> {
                    waitingOne.countDown();
                    release.await();
                }, new ApiMetrics(), Set.of("/health/live"), 1);
        Thread first = new Thread(() -> {
            try {
                blocking.authenticate("Bearer guess", "10.0.0.1");
            } catch (Authentication.RefusedException | InterruptedException expected) {
                // refused once released
            }
        });
        first.start();
        waitingOne.await();
        try {
            assertThatThrownBy(() -> blocking.authenticate("Bearer another-guess", "10.0.0.2"))
                    .isInstanceOfSatisfying(Authentication.RefusedException.class, e -> {
                        assertThat(e.retryAfter).isEqualTo(Duration.ofMillis(100));
                        assertThat(e.getMessage()).doesNotContain("invalid token");
                    });
        } finally {
            release.countDown();
            first.join();
        }
    }

    private void refuse(String address) throws InterruptedException {
        try {
            authentication.authenticate("Bearer " + TokenValidatorTest.token(claims -> claims.audience("other")), address);
        } catch (Authentication.RefusedException expected) {
            return;
        }
        throw new AssertionError("a token for another audience was accepted");
    }
}
