package io.volumizer.ops.identity;

import java.net.URI;

import picocli.CommandLine.Option;

/**
 * {@code --oidc-issuer} (a picocli mixin): the identity provider's realm, whose tokens the API accepts and from which
 * the tools fetch theirs.
 */
public final class IssuerOptions {

    public static final String ISSUER = "--oidc-issuer";

    @Option(names = ISSUER, defaultValue = "${sys:volumizer.oidc.issuer}", description = "The identity provider's issuer "
            + "URL (iss) (default: the local Keycloak's realm, from the endpoints file of bin/volumizer up).")
    public URI issuer;

    /** The realm's token endpoint client. */
    public TokenClient client() {
        return new TokenClient(issuer);
    }
}
