package io.volumizer.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.reads.Caller;

/**
 * Every request but those of the open paths presents a bearer token; a valid one puts its {@link Caller} on the
 * request, anything else is a 401 with {@code WWW-Authenticate} (RFC 6750: {@code error="invalid_token"} when a token
 * was presented). Failures are slowed, not users: a failure is counted against the client address and against the
 * token presented ({@link FailedAuthentications}), and past its penalty a failure from that address, or that token
 * presented again, is a 429 with {@code Retry-After} (the same token is not even read again). A valid token is always
 * read and served: what others did from its address never refuses it. The client address is the peer's, or what the
 * trusted proxies forwarded ({@link TrustedProxies}). Failures and penalties are counted ({@link ApiMetrics}).
 */
public final class Authentication {

    /** What reads a token: {@link TokenValidator#validate}, or a test's. */
    @FunctionalInterface
    public interface Validator {
        Caller validate(String token) throws TokenValidator.InvalidTokenException;
    }

    static final String REALM = "volumizer";
    static final String FORWARDED_FOR = "X-Forwarded-For";
    private static final String BEARER = "Bearer ";
    /** Longer than any identity provider's access token: a longer one is refused unread. */
    static final int MAX_TOKEN_CHARS = 16 * 1024;

    private final Validator validator;
    private final FailedAuthentications failures;
    private final TrustedProxies trustedProxies;
    private final ApiMetrics metrics;
    private final Set<String> openPaths;

    /**
     * @param trustedProxies the proxies whose X-Forwarded-For names the client
     * @param openPaths      the route templates anyone may call
     */
    public Authentication(Validator validator, FailedAuthentications failures, TrustedProxies trustedProxies,
            ApiMetrics metrics, Set<String> openPaths) {
        this.validator = validator;
        this.failures = failures;
        this.trustedProxies = trustedProxies;
        this.metrics = metrics;
        this.openPaths = Set.copyOf(openPaths);
    }

    /** A refused authentication: its challenge, and why. */
    static final class RefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        final String challenge;

        RefusedException(String challenge, String message) {
            super(message);
            this.challenge = challenge;
        }
    }

    /** The before-handler of every matched route. */
    public void handle(Context ctx) {
        if (openPaths.contains(ctx.endpointHandlerPath())) {
            return;
        }
        try {
            authenticate(ctx.header("Authorization"), trustedProxies.client(ctx.ip(), ctx.header(FORWARDED_FOR)))
                    .attachTo(ctx);
        } catch (FailedAuthentications.PenaltyException e) {
            ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
            throw new ApiException(429, "too_many_failures", "Authorization", e.getMessage());
        } catch (RefusedException e) {
            ctx.header("WWW-Authenticate", e.challenge);
            throw new ApiException(401, "unauthorized", "Authorization", e.getMessage());
        }
    }

    /** The caller {@code authorization} names, from {@code address}. */
    Caller authenticate(String authorization, String address) throws RefusedException, FailedAuthentications.PenaltyException {
        String token = bearerToken(authorization);
        String credential = token == null ? null : credentialKey(token);
        if (credential != null) {
            Optional<Duration> left = failures.penalty(credential);
            if (left.isPresent()) {
                metrics.authenticationPenalised();
                throw new FailedAuthentications.PenaltyException(left.get());
            }
        }
        try {
            return caller(token);
        } catch (RefusedException refused) {
            metrics.authenticationFailed();
            String addressKey = "address " + address;
            failures.failed(addressKey);
            if (credential != null) {
                failures.failed(credential);
            }
            Optional<Duration> left = failures.penalty(addressKey);
            if (left.isPresent()) {
                metrics.authenticationPenalised();
                throw new FailedAuthentications.PenaltyException(left.get());
            }
            throw refused;
        }
    }

    private static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length()).strip();
    }

    /** A token's key among the failures: its digest, so that no token is kept. */
    private static String credentialKey(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return "token " + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private Caller caller(String token) throws RefusedException {
        if (token == null) {
            throw new RefusedException("Bearer realm=\"" + REALM + "\"",
                    "requests need the header 'Authorization: Bearer <token>' (bin/volumizer token <user>)");
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            throw invalid("the token is longer than " + MAX_TOKEN_CHARS + " characters");
        }
        try {
            return validator.validate(token);
        } catch (TokenValidator.InvalidTokenException e) {
            throw invalid(e.getMessage());
        }
    }

    private static RefusedException invalid(String why) {
        return new RefusedException("Bearer realm=\"" + REALM + "\", error=\"invalid_token\", error_description=\""
                + why.replace('"', '\'') + "\"", "invalid token: " + why);
    }

    /** {@code handler}, for administrators only: anyone else gets a 403. */
    public static Handler administrators(Handler handler) {
        return ctx -> {
            if (!Caller.of(ctx).administrator()) {
                throw new ApiException(403, "forbidden", null, "only administrators may run this command");
            }
            handler.handle(ctx);
        };
    }
}
