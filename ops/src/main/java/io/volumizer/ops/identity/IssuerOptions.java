package io.volumizer.ops.identity;

import java.net.URI;

import picocli.CommandLine.Option;

/**
 * {@code --oidc-issuer} (a picocli mixin): the identity provider's realm, whose tokens the API accepts and from which
 * the tools fetch theirs (bin/volumizer passes conf/volumizer.conf's OIDC_ISSUER).
 */
public final class IssuerOptions {

    public static final String ISSUER = "--oidc-issuer";

    @Option(names = ISSUER, required = true, description = "The identity provider's issuer URL (iss), e.g. "
            + "http://127.0.0.1:8180/realms/volumizer.")
    public URI issuer;

    /** The realm's token endpoint client. */
    public TokenClient client() {
        return new TokenClient(issuer);
    }
}
