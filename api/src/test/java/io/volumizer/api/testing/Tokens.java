package io.volumizer.api.testing;

import java.net.URI;

import io.volumizer.generators.BankGenerator;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Tokens of the local identity provider ({@code bin/volumizer up} starts it), for the integration tests: the realm's
 * issuer (the {@code volumizer.oidc.issuer} property {@code bin/volumizer test} sets), the service client's token
 * (an administrator's; it lasts an hour, longer than a test class) and the demo users'.
 */
public final class Tokens {

    public static final URI ISSUER = URI.create(System.getProperty("volumizer.oidc.issuer"));
    public static final TokenClient CLIENT = new TokenClient(ISSUER);

    private static String service;

    private Tokens() {
    }

    /** The service client's token, fetched once. */
    public static synchronized String service() {
        if (service == null) {
            try {
                service = CLIENT.service();
            } catch (Exception e) {
                throw new IllegalStateException("no service token (is keycloak up? bin/volumizer up keycloak)", e);
            }
        }
        return service;
    }

    /** A demo user's token, through the command-line client. */
    public static String user(String name) {
        try {
            return CLIENT.user(name);
        } catch (Exception e) {
            throw new IllegalStateException("no token for " + name + " (is keycloak up? bin/volumizer up keycloak)", e);
        }
    }

    /** A staff user of the branch of {@code document}'s state, who may write it (the bank's layout). */
    public static String staffOf(DocumentEvent document) {
        return DemoRealm.staff(String.valueOf(document.getProperties().get(BankGenerator.STATE))).get(0);
    }
}
