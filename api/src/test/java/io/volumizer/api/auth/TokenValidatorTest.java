package io.volumizer.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

import io.javalin.Javalin;
import io.volumizer.api.reads.Caller;
import io.volumizer.options.Options;
import io.volumizer.schemas.acl.Principals;

/** The validator on tokens signed here with a local key, as the provider signs them. */
class TokenValidatorTest {

    static final String ISSUER = "http://127.0.0.1:8180/realms/volumizer";
    static final String AUDIENCE = "volumizer-api";
    static final RSAKey KEY = generate("provider-key");
    private static final RSAKey OTHER_KEY = generate("provider-key"); // same key id, another key: a forgery

    static final TokenValidator VALIDATOR = new TokenValidator(new ImmutableJWKSet<>(new JWKSet(KEY.toPublicJWK())),
            ISSUER, AUDIENCE, Duration.ofSeconds(30));

    private static RSAKey generate(String keyId) {
        try {
            return new RSAKeyGenerator(2048).keyID(keyId).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token for staff-ca-1 in branch-CA, valid for five minutes, changed by {@code change}. */
    static String token(RSAKey key, Consumer<JWTClaimsSet.Builder> change) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("id-1")
                .claim(TokenValidator.USER_CLAIM, "staff-ca-1").claim(TokenValidator.GROUPS_CLAIM, List.of("branch-CA"))
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
        change.accept(claims);
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                    .type(JOSEObjectType.JWT).build(), claims.build());
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String token(Consumer<JWTClaimsSet.Builder> change) {
        return token(KEY, change);
    }

    @Test
    void aValidTokenNamesItsUserItsGroupsAndEveryone() throws Exception {
        Caller caller = VALIDATOR.validate(token(claims -> { }));

        assertThat(caller.name()).isEqualTo("staff-ca-1");
        assertThat(caller.principals()).containsExactlyInAnyOrder("staff-ca-1", "branch-CA", Principals.EVERYONE);
        assertThat(caller.administrator()).isFalse();
    }

    @Test
    void aMemberOfAdministratorsIsAnAdministrator() throws Exception {
        Caller caller = VALIDATOR.validate(token(claims -> claims.claim(TokenValidator.GROUPS_CLAIM,
                List.of(Principals.ADMINISTRATORS))));

        assertThat(caller.administrator()).isTrue();
    }

    @Test
    void aTokenWithoutGroupsNamesItsUserAndEveryone() throws Exception {
        Caller caller = VALIDATOR.validate(token(claims -> claims.claim(TokenValidator.GROUPS_CLAIM, null)));

        assertThat(caller.principals()).containsExactlyInAnyOrder("staff-ca-1", Principals.EVERYONE);
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefused() {
        assertRefused(token(OTHER_KEY, claims -> { }), "signature");
    }

    @Test
    void anUnsignedTokenIsRefused() {
        String unsigned = new PlainJWT(new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE)
                .claim(TokenValidator.USER_CLAIM, "admin").expirationTime(Date.from(Instant.now().plusSeconds(60)))
                .build()).serialize();
        assertRefused(unsigned, "");
        assertRefused("not-a-token", "not a JWT");
    }

    @Test
    void aTokenOfAnotherIssuerIsRefused() {
        assertRefused(token(claims -> claims.issuer("http://127.0.0.1:8180/realms/volumizer-other")), "iss");
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() {
        assertRefused(token(claims -> claims.audience("account")), "aud");
        assertRefused(token(claims -> claims.audience((String) null)), "aud");
    }

    @Test
    void aTokenExpiredBeyondTheClockSkewIsRefusedWithinItAccepted() throws Exception {
        Instant now = Instant.now();
        assertRefused(token(claims -> claims.expirationTime(Date.from(now.minusSeconds(31)))), "expired");
        assertThat(VALIDATOR.validate(token(claims -> claims.expirationTime(Date.from(now.minusSeconds(20))))).name())
                .isEqualTo("staff-ca-1");
        assertRefused(token(claims -> claims.notBeforeTime(Date.from(now.plusSeconds(60)))), "before");
        assertRefused(token(claims -> claims.expirationTime(null)), "exp");
    }

    @Test
    void aTokenWithoutAUserNameIsRefused() {
        assertRefused(token(claims -> claims.claim(TokenValidator.USER_CLAIM, null)), TokenValidator.USER_CLAIM);
    }

    @Test
    void theProvidersKeysAreReadOnceAndAgainForAKeyItRotatedIn() throws Exception {
        RSAKey rotated = generate("rotated-key");
        List<JWKSet> served = new ArrayList<>(List.of(new JWKSet(KEY.toPublicJWK())));
        AtomicInteger reads = new AtomicInteger();
        Javalin provider = Javalin.create().get("/certs", ctx -> {
            reads.incrementAndGet();
            ctx.contentType("application/json").result(served.get(served.size() - 1).toString());
        }).start("127.0.0.1", 0);
        try {
            OidcOptions options = Options.parse(new OidcOptions(), "--oidc-issuer", ISSUER, "--oidc-jwks-url",
                    "http://127.0.0.1:" + provider.port() + "/certs");
            TokenValidator validator = new TokenValidator(options);

            validator.validate(token(claims -> { }));
            validator.validate(token(claims -> { }));
            assertThat(reads).as("key set reads, cached").hasValue(1);

            served.add(new JWKSet(List.of(KEY.toPublicJWK(), rotated.toPublicJWK())));
            assertThat(validator.validate(token(rotated, claims -> { })).name()).isEqualTo("staff-ca-1");
            assertThat(reads).as("key set reads, once more for the unknown key").hasValue(2);
        } finally {
            provider.stop();
        }
    }

    private static void assertRefused(String token, String reason) {
        assertThatThrownBy(() -> VALIDATOR.validate(token)).isInstanceOf(TokenValidator.InvalidTokenException.class)
                .message().containsIgnoringCase(reason);
    }
}
