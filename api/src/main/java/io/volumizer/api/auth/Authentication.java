package io.volumizer.api.auth;

import java.time.Duration;
import java.util.Set;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.reads.Caller;

/**
 * Every request but those of the open paths presents a bearer token; a valid one puts its {@link Caller} on the
 * request, anything else is a 401 with {@code WWW-Authenticate} (RFC 6750: {@code error="invalid_token"} when a token
 * was presented). A failure is counted by client address ({@link ApiMetrics}) and its answer waits the longer the
 * more the address failed ({@link FailedAuthentications}).
 */
public final class Authentication {

    /** What a failed authentication waits with: {@link #THREAD}, or a test's recorder. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;

        /** The request's thread sleeps. */
        Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());
    }

    static final String REALM = "volumizer";
    private static final String BEARER = "Bearer ";

    private final TokenValidator validator;
    private final FailedAuthentications failures;
    private final Sleeper sleeper;
    private final ApiMetrics metrics;
    private final Set<String> openPaths;

    /** @param openPaths the route templates anyone may call */
    public Authentication(TokenValidator validator, FailedAuthentications failures, Sleeper sleeper, ApiMetrics metrics,
            Set<String> openPaths) {
        this.validator = validator;
        this.failures = failures;
        this.sleeper = sleeper;
        this.metrics = metrics;
        this.openPaths = Set.copyOf(openPaths);
    }

    /** A refused authentication: the challenge of its 401, and why. */
    static final class RefusedException extends Exception {
        final String challenge;

        RefusedException(String challenge, String message) {
            super(message);
            this.challenge = challenge;
        }
    }

    /** The before-handler of every matched route. */
    public void handle(Context ctx) throws InterruptedException {
        if (openPaths.contains(ctx.endpointHandlerPath())) {
            return;
        }
        try {
            authenticate(ctx.header("Authorization"), ctx.ip()).attachTo(ctx);
        } catch (RefusedException e) {
            ctx.header("WWW-Authenticate", e.challenge);
            throw new ApiException(401, "unauthorized", "Authorization", e.getMessage());
        }
    }

    /** The caller {@code authorization} names; a refusal has waited as long as its address's failures say. */
    Caller authenticate(String authorization, String address) throws RefusedException, InterruptedException {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw refused(address, "Bearer realm=\"" + REALM + "\"",
                    "requests need the header 'Authorization: Bearer <token>' (bin/volumizer token <user>)");
        }
        try {
            return validator.validate(authorization.substring(BEARER.length()).strip());
        } catch (TokenValidator.InvalidTokenException e) {
            throw refused(address, "Bearer realm=\"" + REALM + "\", error=\"invalid_token\", error_description=\""
                    + e.getMessage().replace('"', '\'') + "\"", "invalid token: " + e.getMessage());
        }
    }

    private RefusedException refused(String address, String challenge, String message) throws InterruptedException {
        metrics.authenticationFailed(address);
        sleeper.sleep(failures.failed(address));
        return new RefusedException(challenge, message);
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
