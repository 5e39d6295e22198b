package io.volumizer.api.auth;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.volumizer.options.Options;
import picocli.CommandLine.Option;

/** How failed authentications are slowed down, per client address and per presented token (a picocli mixin). */
public final class PenaltyOptions {

    @Option(names = "--auth-penalty-after", defaultValue = "5", description = "Failed authentications a client address "
            + "or a token may have before its first penalty window, in which its failures get 429 and Retry-After (a "
            + "valid token is always served) (default: ${DEFAULT-VALUE}).")
    public int penaltyAfter;

    @Option(names = "--auth-penalty", defaultValue = "PT1S", description = "An address's first penalty window; each "
            + "further failure doubles it, up to --auth-max-penalty (default: ${DEFAULT-VALUE}).")
    public Duration penalty;

    @Option(names = "--auth-max-penalty", defaultValue = "PT1M", description = "The longest penalty window (default: ${DEFAULT-VALUE}).")
    public Duration maxPenalty;

    @Option(names = "--trusted-proxies", split = ",", paramLabel = "ADDRESS|CIDR", description = "The proxies (an "
            + "ingress) in front of the API, as addresses or networks (10.0.0.0/8): a request from one of them is the "
            + "client's of the last X-Forwarded-For address that no trusted proxy holds, the one its proxy appended "
            + "(default: none: the peer is the client).")
    public List<String> trustedProxies = new ArrayList<>();

    /** The failures of up to {@link FailedAuthentications#MAX_KEYS} addresses and tokens, penalised as these options say. */
    public FailedAuthentications failures(Clock clock) {
        return new FailedAuthentications(penaltyAfter, penalty, maxPenalty, FailedAuthentications.MAX_KEYS, clock);
    }

    public TrustedProxies proxies() {
        return new TrustedProxies(trustedProxies);
    }

    public void validate() {
        Options.require(penaltyAfter >= 1, "--auth-penalty-after must be 1 or more, was " + penaltyAfter);
        Options.require(!penalty.isNegative() && penalty.compareTo(maxPenalty) <= 0,
                "--auth-penalty must be 0 or more and at most --auth-max-penalty, was " + penalty);
        try {
            proxies();
        } catch (IllegalArgumentException e) {
            Options.require(false, "--trusted-proxies: " + e.getMessage());
        }
    }
}
