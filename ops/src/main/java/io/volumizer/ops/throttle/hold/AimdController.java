package io.volumizer.ops.throttle.hold;

import java.util.Locale;

/**
 * The hold mode's rule: additive increase, multiplicative decrease (TCP's congestion control), on the users' p95
 * of the last window. Users' latency is a steep, noisy function of the import's rate on a shared machine (flat,
 * then a knee where the stores saturate), and a change shows only after Elasticsearch's refreshes and merges
 * catch up: a PID loop tuned for one machine's slope oscillates on another's, while AIMD needs only the target.
 * It probes upwards slowly, backs off fast, and settles in a saw-tooth just below the knee. Until its first decrease
 * it doubles the limit instead of adding to it (TCP's slow start): from a cautious first limit it finds the knee in a
 * few windows, not in minutes of additive steps.
 *
 * @param targetSeconds  the p95 the users should stay under
 * @param increase       docs/s added after a window comfortably under the target
 * @param decreaseFactor the limit's factor after a window over the target
 * @param headroom       the fraction of the target under which a window is comfortable
 * @param floor          the lowest limit set (never 0: a paused import would tell nothing)
 * @param ceiling        the highest limit set; 0 for none
 * @param minRequests    fewer requests in a window say nothing about their p95
 */
public record AimdController(double targetSeconds, double increase, double decreaseFactor, double headroom,
        double floor, double ceiling, long minRequests) {

    /** An achieved rate this far under the limit means the limit is not what holds the job back. */
    static final double REACHED = 0.8;

    public AimdController {
        if (!(targetSeconds > 0) || !(increase > 0) || !(decreaseFactor > 0 && decreaseFactor < 1)
                || !(headroom > 0 && headroom <= 1) || !(floor > 0) || ceiling < 0 || (ceiling > 0 && ceiling < floor)
                || minRequests < 1) {
            throw new IllegalArgumentException("a hold needs a target p95 > 0, an increase > 0, a decrease factor "
                    + "between 0 and 1, a headroom in (0, 1], a floor > 0, a ceiling of 0 (none) or at least the floor, and at "
                    + "least 1 request a window");
        }
    }

    public enum Kind { INCREASE, DECREASE, HOLD }

    /**
     * {@code start}, checked as a first limit.
     *
     * @throws IllegalArgumentException unless it is between the floor and the ceiling
     */
    public double firstLimit(double start) {
        if (!(start >= floor) || ceiling > 0 && start > ceiling) {
            throw new IllegalArgumentException("the first limit, " + start + " docs/s, must be between the floor (" + floor
                    + ") and the ceiling (" + (ceiling > 0 ? ceiling : "none") + ")");
        }
        return start;
    }

    /** What the controller does with the limit, and why (for its log). */
    public record Decision(Kind kind, double limit, String reason) {
    }

    /**
     * The next limit after a window.
     *
     * @param limit    the limit now
     * @param window   the users' requests in the window
     * @param achieved docs/s the throttled jobs let through in the window (NaN: unknown)
     * @param settling whether the last decision was a decrease, whose effect this window may not show yet
     * @param slowStart whether no decrease was decided yet: an increase doubles the limit
     */
    public Decision decide(double limit, LatencyHistogram window, double achieved, boolean settling, boolean slowStart) {
        long requests = window.count();
        if (requests < minRequests) {
            return new Decision(Kind.HOLD, limit, requests + " requests, fewer than " + minRequests + ": too few to judge");
        }
        double p95 = window.quantile(0.95);
        if (p95 > targetSeconds) {
            if (settling) {
                return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " over the target, but the last decrease "
                        + "may not show yet");
            }
            double from = achieved > 0 ? Math.min(limit, achieved) : limit;
            return new Decision(Kind.DECREASE, bounded(from * decreaseFactor), "p95 " + ms(p95) + " over the target "
                    + ms(targetSeconds));
        }
        if (p95 > targetSeconds * headroom) {
            return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " near the target " + ms(targetSeconds));
        }
        if (!(achieved >= REACHED * limit)) {
            return new Decision(Kind.HOLD, limit, String.format(Locale.ROOT, "p95 %s under the target, but the jobs "
                    + "achieve %.0f docs/s of %.0f: a higher limit would change nothing", ms(p95), achieved, limit));
        }
        if (ceiling > 0 && limit >= ceiling) {
            return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " under the target, at the ceiling");
        }
        return new Decision(Kind.INCREASE, bounded(slowStart ? 2 * limit : limit + increase), "p95 " + ms(p95) + " under "
                + Math.round(headroom * 100) + "% of the target " + ms(targetSeconds) + (slowStart ? " (slow start: doubled)" : ""));
    }

    private double bounded(double limit) {
        double atLeastFloor = Math.max(floor, limit);
        return ceiling > 0 ? Math.min(ceiling, atLeastFloor) : atLeastFloor;
    }

    static String ms(double seconds) {
        return String.format(Locale.ROOT, "%.1f ms", seconds * 1000);
    }
}
