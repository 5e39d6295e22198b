package io.volumizer.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.reads.Caller;

/**
 * Refusals and penalty windows, with a clock the test moves and a validator that counts the tokens it reads: nothing
 * waits and no time is measured. Three failures earn a window of 1 s, doubling up to 4 s.
 */
class AuthenticationTest {

    private static final int PENALTY_AFTER = 3;
    private static final String VALID = "Bearer " + TokenValidatorTest.token(claims -> { });
    private static final String INVALID = "Bearer " + TokenValidatorTest.token(claims -> claims.audience("other"));

    private Instant now = Instant.parse("2026-11-24T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    };
    private int tokensRead;
    /** Runs inside a token's reading, once: what another request of the same address meets meanwhile. */
    private Runnable whileReading = () -> { };
    private final Authentication authentication = authentication(FailedAuthentications.MAX_ADDRESSES, Set.of());

    private Authentication authentication(int maxAddresses, Set<InetAddress> trustedProxies) {
        return new Authentication(token -> {
            tokensRead++;
            Runnable meanwhile = whileReading;
            whileReading = () -> { };
            meanwhile.run();
            return TokenValidatorTest.VALIDATOR.validate(token);
        }, new FailedAuthentications(PENALTY_AFTER, Duration.ofSeconds(1), Duration.ofSeconds(4), maxAddresses, clock),
                trustedProxies, new ApiMetrics(), Set.of("/health/live"));
    }

    @Test
    void aValidBearerTokenAuthenticates() throws Exception {
        assertThat(authentication.authenticate(VALID, "10.0.0.1").name()).isEqualTo("staff-ca-1");
        assertThat(authentication.authenticate("bearer " + TokenValidatorTest.token(claims -> { }), "10.0.0.1").name())
                .as("the scheme's case does not matter").isEqualTo("staff-ca-1");
    }

    @Test
    void noTokenIsAChallengeWithoutAnErrorAnInvalidOneNamesTheError() {
        assertThatThrownBy(() -> authentication.authenticate(null, "10.0.0.1"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class,
                        e -> assertThat(e.challenge).isEqualTo("Bearer realm=\"volumizer\""));
        assertThatThrownBy(() -> authentication.authenticate("Basic YWRtaW46YWRtaW4=", "10.0.0.2"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class,
                        e -> assertThat(e.challenge).isEqualTo("Bearer realm=\"volumizer\""));
        assertThatThrownBy(() -> authentication.authenticate("Bearer guess", "10.0.0.3"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class, e -> assertThat(e.challenge)
                        .startsWith("Bearer realm=\"volumizer\", error=\"invalid_token\", error_description=\""));
    }

    @Test
    void afterItsFailuresAnAddressIsRefusedWithoutItsTokenReadUntilItsWindowEnds() throws Exception {
        failTimes(PENALTY_AFTER, "10.0.0.1");
        assertThat(tokensRead).isEqualTo(PENALTY_AFTER);

        assertThat(penaltyLeft(VALID, "10.0.0.1")).as("even a valid token waits").isEqualTo(Duration.ofSeconds(1));
        now = now.plusMillis(400);
        assertThat(penaltyLeft(INVALID, "10.0.0.1")).isEqualTo(Duration.ofMillis(600));
        assertThat(penaltyLeft(null, "10.0.0.1")).isEqualTo(Duration.ofMillis(600));
        assertThatThrownBy(() -> authentication.authenticate(VALID, "10.0.0.1"))
                .isInstanceOfSatisfying(FailedAuthentications.PenaltyException.class,
                        e -> assertThat(e.retryAfterSeconds()).as("rounded up").isEqualTo(1));
        assertThat(tokensRead).as("no token read inside the window").isEqualTo(PENALTY_AFTER);

        assertThat(authentication.authenticate(VALID, "10.0.0.2").name()).as("another address").isEqualTo("staff-ca-1");
        now = now.plusMillis(600);
        assertThat(authentication.authenticate(VALID, "10.0.0.1").name()).as("its window ended").isEqualTo("staff-ca-1");
    }

    @Test
    void eachFurtherFailureDoublesTheWindowUpToTheLongest() throws Exception {
        failTimes(PENALTY_AFTER, "10.0.0.1");
        assertThat(penaltyLeft(VALID, "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
        for (Duration window : new Duration[] {Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(4)}) {
            now = now.plus(penaltyLeft(VALID, "10.0.0.1"));
            assertThat(authentication.authenticate(VALID, "10.0.0.1").name())
                    .as("served between windows, which it does not shorten").isEqualTo("staff-ca-1");
            failTimes(1, "10.0.0.1");
            assertThat(penaltyLeft(VALID, "10.0.0.1")).isEqualTo(window);
        }
    }

    @Test
    void pastItsFirstWindowAnAddressPresentsOneTokenAtATime() throws Exception {
        failTimes(PENALTY_AFTER, "10.0.0.1");
        now = now.plusSeconds(1);
        Duration[] meanwhile = new Duration[1];
        whileReading = () -> meanwhile[0] = penaltyLeft(VALID, "10.0.0.1");

        failTimes(1, "10.0.0.1");

        assertThat(meanwhile[0]).as("refused while its other token was read").isEqualTo(Duration.ZERO);
        assertThat(penaltyLeft(VALID, "10.0.0.1")).isEqualTo(Duration.ofSeconds(2));
        assertThat(tokensRead).isEqualTo(PENALTY_AFTER + 1);
    }

    @Test
    void beforeItsFirstWindowAnAddressPresentsTokensConcurrently() throws Exception {
        failTimes(PENALTY_AFTER - 1, "10.0.0.1");
        String[] meanwhile = new String[1];
        whileReading = () -> {
            try {
                meanwhile[0] = authentication.authenticate(VALID, "10.0.0.1").name();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };

        assertThat(authentication.authenticate(VALID, "10.0.0.1").name()).isEqualTo("staff-ca-1");
        assertThat(meanwhile[0]).isEqualTo("staff-ca-1");
    }

    @Test
    void anAddressIsForgottenAfterItsWindowEndedLongAgo() throws Exception {
        failTimes(PENALTY_AFTER, "10.0.0.1");
        now = now.plusSeconds(1).plus(FailedAuthentications.FORGOTTEN_AFTER).plusSeconds(1);
        failTimes(PENALTY_AFTER - 1, "10.0.0.1");

        assertThat(authentication.authenticate(VALID, "10.0.0.1").name()).as("its failures count from 0 again")
                .isEqualTo("staff-ca-1");
    }

    @Test
    void pastTheMostAddressesTheLeastRecentlyFailedIsDropped() throws Exception {
        Authentication twoAddresses = authentication(2, Set.of());
        fail(twoAddresses, PENALTY_AFTER, "10.0.0.1");
        fail(twoAddresses, PENALTY_AFTER, "10.0.0.2");
        assertThatThrownBy(() -> twoAddresses.authenticate(VALID, "10.0.0.1"))
                .as("a refusal is no failure: it does not keep its address")
                .isInstanceOf(FailedAuthentications.PenaltyException.class);
        fail(twoAddresses, 1, "10.0.0.3");

        assertThat(twoAddresses.authenticate(VALID, "10.0.0.1").name()).as("dropped").isEqualTo("staff-ca-1");
        assertThatThrownBy(() -> twoAddresses.authenticate(VALID, "10.0.0.2")).as("kept")
                .isInstanceOf(FailedAuthentications.PenaltyException.class);
    }

    @Test
    void forwardedForNamesTheClientOnlyWhenTheTrustedProxySentIt() throws Exception {
        Authentication behindProxy = authentication(10, Set.of(InetAddress.getByName("10.1.0.1"),
                InetAddress.getByName("fd00::1")));

        assertThat(behindProxy.clientAddress("10.1.0.1", "203.0.113.7, 10.1.0.9")).isEqualTo("203.0.113.7");
        assertThat(behindProxy.clientAddress("[fd00:0:0:0:0:0:0:1]", "2001:db8::7")).as("the peer's IPv6 text, bracketed")
                .isEqualTo("2001:db8::7");
        assertThat(behindProxy.clientAddress("10.1.0.1", null)).isEqualTo("10.1.0.1");
        assertThat(behindProxy.clientAddress("10.1.0.1", "not an address")).isEqualTo("10.1.0.1");
        assertThat(behindProxy.clientAddress("10.2.0.1", "203.0.113.7")).as("an untrusted peer's header")
                .isEqualTo("10.2.0.1");
        assertThat(authentication.clientAddress("10.1.0.1", "203.0.113.7")).as("no trusted proxy").isEqualTo("10.1.0.1");
    }

    private void failTimes(int failures, String address) throws Exception {
        fail(authentication, failures, address);
    }

    private static void fail(Authentication authentication, int failures, String address) throws Exception {
        for (int i = 0; i < failures; i++) {
            try {
                authentication.authenticate(INVALID, address);
                throw new AssertionError("a token for another audience was accepted");
            } catch (Authentication.RefusedException expected) {
                // a failure
            }
        }
    }

    /** How long {@code address} is told to wait when it presents {@code authorization}: it must be refused. */
    private Duration penaltyLeft(String authorization, String address) {
        try {
            Caller caller = authentication.authenticate(authorization, address);
            throw new AssertionError("not refused: " + caller.name());
        } catch (FailedAuthentications.PenaltyException e) {
            return e.left;
        } catch (Authentication.RefusedException e) {
            throw new AssertionError("read and refused, not penalised", e);
        }
    }
}
