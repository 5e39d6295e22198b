package io.volumizer.api.auth;

import java.net.URI;
import java.time.Duration;

import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.IssuerOptions;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.options.Options;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Which bearer tokens the API accepts (a picocli mixin). */
public final class OidcOptions {

    @Mixin public IssuerOptions issuer = new IssuerOptions();

    @Option(names = "--oidc-audience", defaultValue = DemoRealm.API_AUDIENCE,
            description = "The audience tokens must name (aud) (default: ${DEFAULT-VALUE}).")
    public String audience;

    @Option(names = "--oidc-jwks-url", description = "The provider's JSON Web Key Set, cached and read again for a key "
            + "it does not hold (default: the issuer's Keycloak path, <issuer>/protocol/openid-connect/certs).")
    public URI jwksUrl;

    @Option(names = "--oidc-clock-skew", defaultValue = "PT30S",
            description = "Clock difference tolerated on a token's expiry and not-before (default: ${DEFAULT-VALUE}).")
    public Duration clockSkew;

    /** The key set's URL: --oidc-jwks-url, else the issuer's. */
    public URI jwks() {
        return jwksUrl != null ? jwksUrl : TokenClient.jwksEndpoint(issuer.issuer);
    }

    public void validate() {
        Options.require(issuer.issuer.isAbsolute(), IssuerOptions.ISSUER + " must be an absolute URL, was " + issuer.issuer);
        Options.require(!audience.isBlank(), "--oidc-audience must not be blank");
        Options.require(!clockSkew.isNegative(), "--oidc-clock-skew must not be negative, was " + clockSkew);
    }
}
