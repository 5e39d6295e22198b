package io.volumizer.api.auth;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Semaphore;

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
    /**
     * Refusals that may wait at once: each holds a request thread while it waits, so past these a refusal answers
     * at once with 429 and Retry-After, and without its verdict on the token (a flood of guesses gets no answer).
     */
    public static final int MAX_WAITING = 32;

    private final TokenValidator validator;
    private final FailedAuthentications failures;
    private final Sleeper sleeper;
    private final ApiMetrics metrics;
    private final Set<String> openPaths;
    private final Semaphore waiting;

    /**
     * @param openPaths  the route templates anyone may call
     * @param maxWaiting refusals that may wait at once ({@link #MAX_WAITING})
     */
    public Authentication(TokenValidator validator, FailedAuthentications failures, Sleeper sleeper, ApiMetrics metrics,
            Set<String> openPaths, int maxWaiting) {
        this.validator = validator;
        this.failures = failures;
        this.sleeper = sleeper;
        this.metrics = metrics;
        this.openPaths = Set.copyOf(openPaths);
        this.waiting = new Semaphore(maxWaiting);
    }

    /** A refused authentication: a 401 and its challenge, or a 429 when too many refusals wait; and why. */
    static final class RefusedException extends Exception {
        final String challenge;
        /** Set for a 429: how long the address's refusal would have waited. */
        final Duration retryAfter;

        RefusedException(String challenge, Duration retryAfter, String message) {
            super(message);
            this.challenge = challenge;
            this.retryAfter = retryAfter;
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
            if (e.retryAfter != null) {
                ctx.header("Retry-After", Long.toString(Math.max(1, (e.retryAfter.toMillis() + 999) / 1000)));
                throw new ApiException(429, "too_many_failures", "Authorization", e.getMessage());
            }
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
        Duration delay = failures.failed(address);
        if (!waiting.tryAcquire()) {
            return new RefusedException(challenge, delay, "too many failed authentications are waiting; retry later");
        }
        try {
            sleeper.sleep(delay);
        } finally {
            waiting.release();
        }
        return new RefusedException(challenge, null, message);
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
