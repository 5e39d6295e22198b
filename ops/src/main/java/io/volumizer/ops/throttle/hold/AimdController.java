package io.volumizer.ops.throttle.hold;

import java.util.Locale;

/**
 * The hold mode's rule: additive increase, multiplicative decrease (TCP's congestion control), on the users' p95
 * of the last window. Users' latency is a steep, noisy function of the import's rate on a shared machine (flat,
 * then a knee where the stores saturate), and a change shows only after Elasticsearch's refreshes and merges
 * catch up: a PID loop tuned for one machine's slope oscillates on another's, while AIMD needs only the target.
 * It probes upwards slowly, backs off fast, and settles in a saw-tooth just below the knee. Until the users' p95
 * first comes near the target (or over it) it doubles the limit instead of adding to it (TCP's slow start): from a
 * cautious first limit it finds the knee in a few windows, not in minutes of additive steps. Slow start ends at that
 * first window near the target, as TCP's ends at its threshold: doubling on from there on one lucky window went
 * far past the knee (run 16 of the curve: 3,200 docs/s near the target, one window under, then 6,400, and three
 * windows over while it came back down). A decrease cuts the jobs' recent rate (not a stalled window's) by its
 * factor; then the limit climbs back to {@value #RECOVER_TO} of that rate in {@value #RECOVERY_WINDOWS} windows, and
 * only probes from there by additive steps (as CUBIC returns fast to its last congestion window and probes slowly
 * around it): additive steps alone, sized for one machine, take minutes to climb back thousands of docs/s on another.
 *
 * <p>A decrease is judged on the p95 of the last {@code decreaseWindows} windows together, the span the users' figure
 * counts (10 s), and only once the last window is over the target too: one slow window inside a span that stays
 * under costs no cut (runs 6 to 13 of the curve met the windows figure more often than the rate figure, cutting on
 * single 5-s windows). A window far over the target ({@value #FAR_OVER} times) cuts at once. A probing step beyond the recovery is
 * judged on the p95 of the last {@code probeWindows} windows together: a window holds a few dozen requests, whose p95
 * is their third or fourth slowest, and a probe on one lucky window climbs past the knee (runs 1 to 3 of the curve:
 * 94 to 97% of the windows under the target), while a headroom wide enough to absorb that noise stops the climb far
 * below it (run 4: 0.59 of the best fixed rate).
 *
 * @param targetSeconds  the p95 the users should stay under
 * @param increase       docs/s added after a window comfortably under the target
 * @param decreaseFactor the factor of the jobs' recent rate the limit is cut to after a window over the target
 * @param headroom       the fraction of the target under which the p95 judged (a window's, or the probe span's) lets
 *                       the limit rise
 * @param floor          the lowest limit set (never 0: a paused import would tell nothing)
 * @param ceiling        the highest limit set; 0 for none
 * @param minRequests    fewer requests in a window say nothing about their p95
 * @param probeWindows   how many windows, the last included, a probing step is judged on
 * @param decreaseWindows how many windows, the last included, a decrease is judged on
 */
public record AimdController(double targetSeconds, double increase, double decreaseFactor, double headroom,
        double floor, double ceiling, long minRequests, int probeWindows, int decreaseWindows) {

    /** A window's p95 this many times the target cuts the limit whatever the span before it. */
    static final double FAR_OVER = 1.5;

    /** An achieved rate this far under the limit means the limit is not what holds the job back. */
    static final double REACHED = 0.8;
    /** After a decrease, the share of the congested rate the limit climbs back to quickly. */
    static final double RECOVER_TO = 0.9;
    static final int RECOVERY_WINDOWS = 3;

    /**
     * Where the controller is: in slow start (no decrease yet), settling (the last decision a decrease), the rate the
     * jobs achieved when the p95 last went over (NaN: never), and what they achieved in the last window (NaN: unknown).
     */
    public record Phase(boolean slowStart, boolean settling, double congestedAt, double lastAchieved) {
        public static final Phase START = new Phase(true, false, Double.NaN, Double.NaN);

        /**
         * The phase after {@code decision}, taken when the jobs achieved {@code achieved}. The congested rate is the
         * {@linkplain #recentRate recent rate}: recovering towards a rate a stall depressed settles far under the knee.
         */
        public Phase after(Decision decision, double achieved, double limitBefore) {
            boolean decreased = decision.kind() == Kind.DECREASE;
            return new Phase(slowStart && !decreased && !decision.nearTarget(), decreased,
                    decreased ? recentRate(achieved, limitBefore) : congestedAt, achieved);
        }

        /**
         * What the jobs ran at, under {@code limit}: the higher of this window's rate and the last one's, since in
         * the window the users felt, the stores' stall may already have held the jobs back (the limit when unknown).
         */
        double recentRate(double achieved, double limit) {
            double recent = Math.max(achieved > 0 ? achieved : 0, lastAchieved > 0 ? lastAchieved : 0);
            return recent > 0 ? Math.min(recent, limit) : limit;
        }
    }

    public AimdController {
        if (!(targetSeconds > 0) || !(increase > 0) || !(decreaseFactor > 0 && decreaseFactor < 1)
                || !(headroom > 0 && headroom <= 1) || !(floor > 0) || ceiling < 0 || (ceiling > 0 && ceiling < floor)
                || minRequests < 1 || probeWindows < 1 || decreaseWindows < 1) {
            throw new IllegalArgumentException("a hold needs a target p95 > 0, an increase > 0, a decrease factor "
                    + "between 0 and 1, a headroom in (0, 1], a floor > 0, a ceiling of 0 (none) or at least the floor, at "
                    + "least 1 request a window and at least 1 window to judge a probe or a decrease on");
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

    /**
     * What the controller does with the limit, and why (for its log).
     *
     * @param nearTarget whether the p95 judged was near the target (over the headroom, or a window over it that the
     *                   span absorbs): it ends slow start
     */
    public record Decision(Kind kind, double limit, String reason, boolean nearTarget) {
        public Decision(Kind kind, double limit, String reason) {
            this(kind, limit, reason, false);
        }
    }

    /**
     * The next limit after a window.
     *
     * @param limit    the limit now
     * @param window   the users' requests in the window
     * @param decreaseSpan the users' requests in the last {@code decreaseWindows} windows (fewer after a start or an
     *                 API restart), this one included
     * @param probeSpan the users' requests in the last {@code probeWindows} windows (fewer after a start or an API
     *                 restart), this one included
     * @param achieved docs/s the throttled jobs let through in the window (NaN: unknown)
     * @param phase    where the controller is
     */
    public Decision decide(double limit, LatencyHistogram window, LatencyHistogram decreaseSpan,
            LatencyHistogram probeSpan, double achieved, Phase phase) {
        long requests = window.count();
        if (requests < minRequests) {
            return new Decision(Kind.HOLD, limit, requests + " requests, fewer than " + minRequests + ": too few to judge");
        }
        double p95 = window.quantile(0.95);
        if (p95 > targetSeconds) {
            double spanP95 = decreaseSpan.quantile(0.95);
            if (p95 <= FAR_OVER * targetSeconds && spanP95 <= targetSeconds) {
                return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " over the target, but " + ms(spanP95)
                        + " over the last " + decreaseSpan.count() + " requests", true);
            }
            if (phase.settling()) {
                return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " over the target, but the last decrease "
                        + "may not show yet");
            }
            // From the recent rate: a cut from a window a stall depressed (run 11: 1,099 docs/s achieved after
            // 2,619) goes far under the knee, and the recovery takes a minute.
            return new Decision(Kind.DECREASE, bounded(phase.recentRate(achieved, limit) * decreaseFactor), "p95 "
                    + ms(p95) + " over the target " + ms(targetSeconds));
        }
        if (!(achieved >= REACHED * limit)) {
            return new Decision(Kind.HOLD, limit, String.format(Locale.ROOT, "p95 %s under the target, but the jobs "
                    + "achieve %.0f docs/s of %.0f: a higher limit would change nothing", ms(p95), achieved, limit));
        }
        if (ceiling > 0 && limit >= ceiling) {
            return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " under the target, at the ceiling");
        }
        double recovered = RECOVER_TO * phase.congestedAt();
        boolean recovering = !phase.slowStart() && limit + increase < recovered;
        boolean probing = !phase.slowStart() && !recovering;
        double judged = probing ? probeSpan.quantile(0.95) : p95;
        String reading = probing ? "p95 " + ms(judged) + " over the last " + probeSpan.count() + " requests" : "p95 " + ms(p95);
        if (judged > targetSeconds * headroom) {
            return new Decision(Kind.HOLD, limit, reading + " near the target " + ms(targetSeconds), true);
        }
        String under = reading + " under " + Math.round(headroom * 100) + "% of the target " + ms(targetSeconds);
        if (phase.slowStart()) {
            return new Decision(Kind.INCREASE, bounded(2 * limit), under + " (slow start: doubled)");
        }
        if (recovering) {
            return new Decision(Kind.INCREASE, bounded(Math.max(limit + increase, limit + (recovered - limit) / RECOVERY_WINDOWS)),
                    under + String.format(Locale.ROOT, " (recovering towards %.0f docs/s)", recovered));
        }
        return new Decision(Kind.INCREASE, bounded(limit + increase), under);
    }

    private double bounded(double limit) {
        double atLeastFloor = Math.max(floor, limit);
        return ceiling > 0 ? Math.min(ceiling, atLeastFloor) : atLeastFloor;
    }

    static String ms(double seconds) {
        return String.format(Locale.ROOT, "%.1f ms", seconds * 1000);
    }
}
