package io.volumizer.api.auth;

import java.net.MalformedURLException;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

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

    /** Why a token was refused; its message is what the 401 says. */
    public static final class InvalidTokenException extends Exception {
        InvalidTokenException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    public TokenValidator(OidcOptions options) throws MalformedURLException {
        // While the provider is unreachable the keys read last keep validating the tokens it issued before.
        this(JWKSourceBuilder.create(options.jwks().toURL()).outageTolerantForever().build(), options.issuer.issuer.toString(),
                options.audience, options.clockSkew);
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
