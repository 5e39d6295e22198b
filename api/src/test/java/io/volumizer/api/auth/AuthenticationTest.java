package io.volumizer.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.reads.Caller;

/**
 * Refusals and penalty windows, with a clock the test moves and a validator that counts the tokens it reads: nothing
 * waits and no time is measured. Three failures earn a window of 1 s, doubling up to 4 s. A window refuses failures,
 * never a valid token.
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
    private final Authentication authentication = authentication(FailedAuthentications.MAX_KEYS, List.of());

    private Authentication authentication(int maxKeys, List<String> trustedProxies) {
        return new Authentication(token -> {
            tokensRead++;
            return TokenValidatorTest.VALIDATOR.validate(token);
        }, new FailedAuthentications(PENALTY_AFTER, Duration.ofSeconds(1), Duration.ofSeconds(4), maxKeys, clock),
                new TrustedProxies(trustedProxies), new ApiMetrics(), Set.of("/health/live"));
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
                .isInstanceOfSatisfying(Authentication.RefusedException.class, e -> assertThat(e.challenge)
                        .isEqualTo("Bearer realm=\"volumizer\""));
        assertThatThrownBy(() -> authentication.authenticate(INVALID, "10.0.0.2"))
                .isInstanceOfSatisfying(Authentication.RefusedException.class, e -> assertThat(e.challenge)
                        .startsWith("Bearer realm=\"volumizer\", error=\"invalid_token\", error_description="));
        assertThatThrownBy(() -> authentication.authenticate("Bearer " + "x".repeat(Authentication.MAX_TOKEN_CHARS + 1),
                "10.0.0.3")).as("too long to read").isInstanceOf(Authentication.RefusedException.class);
    }

    @Test
    void pastItsFailuresAnAddressFailsWith429UntilItsWindowEndsButAValidTokenIsServed() throws Exception {
        failTimes(PENALTY_AFTER - 1, "10.0.0.1", null);
        assertThat(penaltyLeft(null, "10.0.0.1")).as("the failure that opens the window").isEqualTo(Duration.ofSeconds(1));
        assertThat(penaltyLeft("Bearer guess", "10.0.0.1")).isEqualTo(Duration.ofSeconds(2));

        int read = tokensRead;
        assertThat(authentication.authenticate(VALID, "10.0.0.1").name()).as("inside the window").isEqualTo("staff-ca-1");
        assertThat(tokensRead).isEqualTo(read + 1);
        assertThat(authentication.authenticate(VALID, "10.0.0.9").name()).isEqualTo("staff-ca-1");
    }

    @Test
    void theSameRefusedTokenIsNotReadAgainInsideItsWindow() throws Exception {
        for (int i = 0; i < PENALTY_AFTER; i++) {
            assertThatThrownBy(() -> authentication.authenticate(INVALID, "10.0.0." + tokensRead))
                    .isInstanceOf(Exception.class);
        }
        int read = tokensRead;
        assertThat(penaltyLeft(INVALID, "10.0.0.200")).as("from an address that never failed").isPositive();
        assertThat(tokensRead).as("not read").isEqualTo(read);
        now = now.plusSeconds(2);
        assertThatThrownBy(() -> authentication.authenticate(INVALID, "10.0.0.201")).as("read again once it ended")
                .isInstanceOf(Exception.class);
        assertThat(tokensRead).isEqualTo(read + 1);
    }

    @Test
    void eachFurtherFailureDoublesTheWindowUpToTheLongest() throws Exception {
        failTimes(PENALTY_AFTER - 1, "10.0.0.1", null);
        assertThat(penaltyLeft(null, "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
        assertThat(penaltyLeft(null, "10.0.0.1")).isEqualTo(Duration.ofSeconds(2));
        assertThat(penaltyLeft(null, "10.0.0.1")).isEqualTo(Duration.ofSeconds(4));
        assertThat(penaltyLeft(null, "10.0.0.1")).as("the longest").isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aKeyIsForgottenAfterItsWindowEndedLongAgo() throws Exception {
        failTimes(PENALTY_AFTER, "10.0.0.1", INVALID);
        now = now.plus(FailedAuthentications.FORGOTTEN_AFTER).plusSeconds(5);
        failTimes(PENALTY_AFTER - 1, "10.0.0.1", null);
        assertThat(penaltyLeft(null, "10.0.0.1")).as("counted from one again").isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void pastTheMostKeysTheLeastRecentlyFailedIsDropped() throws Exception {
        Authentication twoKeys = authentication(2, List.of());
        fail(twoKeys, PENALTY_AFTER, "10.0.0.1", null);
        fail(twoKeys, PENALTY_AFTER, "10.0.0.2", null);
        fail(twoKeys, 1, "10.0.0.3", null);
        assertThatThrownBy(() -> twoKeys.authenticate(null, "10.0.0.1")).as("dropped: counted from one")
                .isInstanceOf(Authentication.RefusedException.class);
        assertThatThrownBy(() -> twoKeys.authenticate(null, "10.0.0.3")).as("kept")
                .isInstanceOf(Authentication.RefusedException.class);
    }

    @Test
    void forwardedForNamesTheAddressTheTrustedProxiesReceivedFrom() {
        TrustedProxies proxies = new TrustedProxies(List.of("10.1.0.0/16", "fd00::1"));

        assertThat(proxies.client("10.1.0.1", "203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(proxies.client("10.1.0.1", "198.51.100.1, 203.0.113.7")).as("the client wrote the first entry")
                .isEqualTo("203.0.113.7");
        assertThat(proxies.client("10.1.0.1", "203.0.113.7, 10.1.0.9")).as("through two trusted proxies")
                .isEqualTo("203.0.113.7");
        assertThat(proxies.client("fd00:0:0:0:0:0:0:1", "2001:db8::7")).isEqualTo("2001:db8::7");
        assertThat(proxies.client("10.1.0.1", null)).isEqualTo("10.1.0.1");
        assertThat(proxies.client("10.1.0.1", "not an address")).isEqualTo("10.1.0.1");
        assertThat(proxies.client("10.1.0.1", "evil.example, 203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(proxies.client("10.2.0.1", "203.0.113.7")).as("an untrusted peer's header").isEqualTo("10.2.0.1");
        assertThat(new TrustedProxies(List.of()).client("10.1.0.1", "203.0.113.7")).as("no trusted proxy")
                .isEqualTo("10.1.0.1");
        assertThatThrownBy(() -> new TrustedProxies(List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TrustedProxies(List.of("ingress.local"))).isInstanceOf(IllegalArgumentException.class);
    }

    private void failTimes(int failures, String address, String authorization) throws Exception {
        fail(authentication, failures, address, authorization);
    }

    private static void fail(Authentication authentication, int failures, String address, String authorization)
            throws Exception {
        for (int i = 0; i < failures; i++) {
            try {
                authentication.authenticate(authorization, address);
                throw new AssertionError("accepted");
            } catch (Authentication.RefusedException | FailedAuthentications.PenaltyException expected) {
                // a failure
            }
        }
    }

    /** How long {@code address} is told to wait when it presents {@code authorization}: it must be penalised. */
    private Duration penaltyLeft(String authorization, String address) {
        try {
            Caller caller = authentication.authenticate(authorization, address);
            throw new AssertionError("not refused: " + caller.name());
        } catch (FailedAuthentications.PenaltyException e) {
            return e.left;
        } catch (Authentication.RefusedException e) {
            throw new AssertionError("refused, not penalised", e);
        }
    }
}
