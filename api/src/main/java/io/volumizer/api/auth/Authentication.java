package io.volumizer.api.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.regex.Pattern;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.reads.Caller;

/**
 * Every request but those of the open paths presents a bearer token; a valid one puts its {@link Caller} on the
 * request, anything else is a 401 with {@code WWW-Authenticate} (RFC 6750: {@code error="invalid_token"} when a token
 * was presented). Before its token is read, a client address inside its penalty window gets a 429 with
 * {@code Retry-After} ({@link FailedAuthentications}); no request waits. The client address is the peer's, or, when
 * the peer is a trusted proxy, the first of its {@code X-Forwarded-For}. Failures and penalties are counted
 * ({@link ApiMetrics}).
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
    /** An IPv4 or IPv6 address's characters and longest text: anything else in X-Forwarded-For is not a client's. */
    private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{1,45}");

    private final Validator validator;
    private final FailedAuthentications failures;
    private final Set<InetAddress> trustedProxies;
    private final ApiMetrics metrics;
    private final Set<String> openPaths;

    /**
     * @param trustedProxies the peers whose X-Forwarded-For names the client
     * @param openPaths      the route templates anyone may call
     */
    public Authentication(Validator validator, FailedAuthentications failures, Set<InetAddress> trustedProxies,
            ApiMetrics metrics, Set<String> openPaths) {
        this.validator = validator;
        this.failures = failures;
        this.trustedProxies = Set.copyOf(trustedProxies);
        this.metrics = metrics;
        this.openPaths = Set.copyOf(openPaths);
    }

    /** A refused authentication: its challenge, and why. */
    static final class RefusedException extends Exception {
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
            authenticate(ctx.header("Authorization"), clientAddress(ctx.ip(), ctx.header(FORWARDED_FOR))).attachTo(ctx);
        } catch (FailedAuthentications.PenaltyException e) {
            ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
            throw new ApiException(429, "too_many_failures", "Authorization", e.getMessage());
        } catch (RefusedException e) {
            ctx.header("WWW-Authenticate", e.challenge);
            throw new ApiException(401, "unauthorized", "Authorization", e.getMessage());
        }
    }

    /** The caller {@code authorization} names, on {@code address}'s turn. */
    Caller authenticate(String authorization, String address) throws RefusedException, FailedAuthentications.PenaltyException {
        try {
            return failures.attempt(address, () -> caller(authorization));
        } catch (RefusedException e) {
            metrics.authenticationFailed();
            throw e;
        } catch (FailedAuthentications.PenaltyException e) {
            metrics.authenticationPenalised();
            throw e;
        }
    }

    /** The first address of {@code forwardedFor} when {@code peer} is a trusted proxy; else the peer's. */
    String clientAddress(String peer, String forwardedFor) {
        if (forwardedFor == null || trustedProxies.isEmpty() || !trusted(peer)) {
            return peer;
        }
        String first = forwardedFor.split(",", 2)[0].strip();
        return ADDRESS.matcher(first).matches() ? first : peer;
    }

    private boolean trusted(String peer) {
        try {
            // The peer is an address's text (the server's), never a name to look up.
            return trustedProxies.contains(InetAddress.getByName(peer));
        } catch (UnknownHostException notAnAddress) {
            return false;
        }
    }

    private Caller caller(String authorization) throws RefusedException {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new RefusedException("Bearer realm=\"" + REALM + "\"",
                    "requests need the header 'Authorization: Bearer <token>' (bin/volumizer token <user>)");
        }
        try {
            return validator.validate(authorization.substring(BEARER.length()).strip());
        } catch (TokenValidator.InvalidTokenException e) {
            throw new RefusedException("Bearer realm=\"" + REALM + "\", error=\"invalid_token\", error_description=\""
                    + e.getMessage().replace('"', '\'') + "\"", "invalid token: " + e.getMessage());
        }
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
