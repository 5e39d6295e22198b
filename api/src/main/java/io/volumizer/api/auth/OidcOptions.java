package io.volumizer.api.auth;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.IssuerOptions;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.options.Options;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Which bearer tokens the API accepts (a picocli mixin), and how failed authentications are penalised. */
public final class OidcOptions {

    @Mixin
    public IssuerOptions issuer = new IssuerOptions();

    @Option(names = "--oidc-audience", defaultValue = DemoRealm.API_AUDIENCE,
            description = "The audience tokens must name (aud) (default: ${DEFAULT-VALUE}).")
    public String audience;

    @Option(names = "--oidc-jwks-url", description = "The provider's JSON Web Key Set, cached and read again for a key "
            + "it does not hold (default: the issuer's Keycloak path, <issuer>/protocol/openid-connect/certs).")
    public URI jwksUrl;

    @Option(names = "--oidc-clock-skew", defaultValue = "PT30S",
            description = "Clock difference tolerated on a token's expiry and not-before (default: ${DEFAULT-VALUE}).")
    public Duration clockSkew;

    @Option(names = "--auth-penalty-after", defaultValue = "5", description = "Failed authentications a client address "
            + "may have before its first penalty window, in which its requests get 429 and Retry-After, their tokens "
            + "unread (default: ${DEFAULT-VALUE}).")
    public int penaltyAfter;

    @Option(names = "--auth-penalty", defaultValue = "PT1S", description = "An address's first penalty window; each "
            + "further failure doubles it (default: ${DEFAULT-VALUE}).")
    public Duration penalty;

    @Option(names = "--auth-max-penalty", defaultValue = "PT1M",
            description = "The longest penalty window (default: ${DEFAULT-VALUE}).")
    public Duration maxPenalty;

    @Option(names = "--trusted-proxies", split = ",", description = "The addresses of the proxies (an ingress) in front "
            + "of the API: a request from one of them is the client's of the first address of its X-Forwarded-For, which "
            + "the proxy must set (default: none: the peer is the client).")
    public List<InetAddress> trustedProxies = new ArrayList<>();

    /** The key set's URL: --oidc-jwks-url, else the issuer's. */
    public URI jwks() {
        return jwksUrl != null ? jwksUrl : TokenClient.jwksEndpoint(issuer.issuer);
    }

    public void validate() {
        Options.require(issuer.issuer.isAbsolute(), IssuerOptions.ISSUER + " must be an absolute URL, was " + issuer.issuer);
        Options.require(!audience.isBlank(), "--oidc-audience must not be blank");
        Options.require(!clockSkew.isNegative(), "--oidc-clock-skew must not be negative, was " + clockSkew);
        Options.require(penaltyAfter >= 1, "--auth-penalty-after must be 1 or more, was " + penaltyAfter);
        Options.require(!penalty.isNegative() && penalty.compareTo(maxPenalty) <= 0,
                "--auth-penalty must be 0 or more and at most --auth-max-penalty, was " + penalty);
    }
}
