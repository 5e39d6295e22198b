package io.volumizer.api.auth;

import java.net.MalformedURLException;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.api.reads.Caller;

/**
 * Validates a bearer token, a JWT the identity provider signed: its signature against the provider's keys (a JWK set
 * read once, cached, and read again when a token names a key it does not hold: the provider rotated its keys), its
 * issuer, its audience, its expiry and not-before within the clock skew, and a user name. The caller it names is the
 * token's {@value #USER_CLAIM} with its {@value #GROUPS_CLAIM} (plain group names; none when the claim is absent).
 */
public final class TokenValidator {

    public static final String USER_CLAIM = "preferred_username";
    public static final String GROUPS_CLAIM = "groups";

    /** The signatures an OIDC provider uses (Keycloak's default is RS256). */
    private static final Set<JWSAlgorithm> ALGORITHMS = union(JWSAlgorithm.Family.RSA, JWSAlgorithm.Family.EC);
    /** How long a read of the provider's keys may take to connect, and to answer. */
    private static final int KEYS_TIMEOUT_MILLIS = 3000;

    /** Why a token was refused; its message is what the 401 says. */
    public static final class InvalidTokenException extends Exception {
        InvalidTokenException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    public TokenValidator(OidcOptions options) throws MalformedURLException {
        // While the provider is unreachable the keys read last keep validating the tokens it issued before.
        // A provider slow to answer its first read (nimbus's default is half a second) is waited for, within bounds.
        this(JWKSourceBuilder.create(options.jwks().toURL(), new DefaultResourceRetriever(KEYS_TIMEOUT_MILLIS,
                KEYS_TIMEOUT_MILLIS, JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT)).outageTolerantForever().build(),
                options.issuer.issuer.toString(), options.audience, options.clockSkew);
    }

    public TokenValidator(JWKSource<SecurityContext> keys, String issuer, String audience, Duration clockSkew) {
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(audience,
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of(JWTClaimNames.EXPIRATION_TIME, USER_CLAIM));
        claims.setMaxClockSkew(Math.toIntExact(clockSkew.toSeconds()));
        processor.setJWTClaimsSetVerifier(claims);
    }

    /** The caller the token names, once it is valid. */
    public Caller validate(String token) throws InvalidTokenException {
        JWTClaimsSet claims;
        try {
            claims = processor.process(token, null);
        } catch (ParseException e) {
            throw new InvalidTokenException("the token is not a JWT", e);
        } catch (KeySourceException e) {
            // The provider's keys cannot be read now: no token's fault, and no reason to count it against its caller.
            throw new BackendUnavailableException("identity provider", e);
        } catch (BadJOSEException | JOSEException e) {
            throw new InvalidTokenException(e.getMessage(), e);
        }
        try {
            List<String> groups = claims.getStringListClaim(GROUPS_CLAIM);
            return Caller.of(claims.getStringClaim(USER_CLAIM), groups == null ? List.of() : groups);
        } catch (ParseException e) {
            throw new InvalidTokenException("the token's " + USER_CLAIM + " or " + GROUPS_CLAIM + " claim is malformed", e);
        }
    }

    private static Set<JWSAlgorithm> union(Set<JWSAlgorithm> first, Set<JWSAlgorithm> second) {
        Set<JWSAlgorithm> all = new HashSet<>(first);
        all.addAll(second);
        return Set.copyOf(all);
    }
}
