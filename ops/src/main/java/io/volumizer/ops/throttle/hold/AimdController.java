package io.volumizer.ops.throttle.hold;

import java.util.Locale;

/**
 * The hold mode's rule: additive increase, multiplicative decrease (TCP's congestion control), on the users' p95
 * of the last window. Users' latency is a steep, noisy function of the import's rate on a shared machine (flat,
 * then a knee where the stores saturate), and a change shows only after Elasticsearch's refreshes and merges
 * catch up: a PID loop tuned for one machine's slope oscillates on another's, while AIMD needs only the target.
 * It probes upwards slowly, backs off fast, and settles in a saw-tooth just below the knee. Until its first decrease
 * it doubles the limit instead of adding to it (TCP's slow start): from a cautious first limit it finds the knee in a
 * few windows, not in minutes of additive steps. After a decrease it climbs back to {@value #RECOVER_TO} of the rate
 * the jobs achieved when the users' p95 went over, in {@value #RECOVERY_WINDOWS} windows, and only probes from there
 * by additive steps (as CUBIC returns fast to its last congestion window and probes slowly around it): additive steps
 * alone, sized for one machine, take minutes to climb back thousands of docs/s on another. Below the rate of its last
 * congestion it probes by {@value #NEAR_CONGESTION_STEP} of its step, as CUBIC's window grows slowest near its last
 * maximum: every probe that reaches the knee costs windows over the target (run 7 of the curve: three probe cycles of
 * about 45 s, each ended by a window over 50 ms).
 *
 * <p>A decrease is confirmed by a second window over the target, unless the first is over {@value #FAR_OVER} times
 * the target: a window's p95 rests on its slowest few requests, and single windows just over the target came far
 * under the knee (run 8: four of them, at 1,600 to 1,850 docs/s where 2,500 held 23 ms), each cutting the limit and
 * lowering the rate the probing aimed at. A probing step beyond the recovery is
 * judged on the p95 of the last {@code probeWindows} windows together: a window holds a few dozen requests, whose p95
 * is their third or fourth slowest, and a probe on one lucky window climbs past the knee (runs 1 to 3 of the curve:
 * 94 to 97% of the windows under the target), while a headroom wide enough to absorb that noise stops the climb far
 * below it (run 4: 0.59 of the best fixed rate).
 *
 * @param targetSeconds  the p95 the users should stay under
 * @param increase       docs/s added after a window comfortably under the target
 * @param decreaseFactor the limit's factor after a confirmed window over the target
 * @param headroom       the fraction of the target under which the p95 judged (a window's, or the probe span's) lets
 *                       the limit rise
 * @param floor          the lowest limit set (never 0: a paused import would tell nothing)
 * @param ceiling        the highest limit set; 0 for none
 * @param minRequests    fewer requests in a window say nothing about their p95
 * @param probeWindows   how many windows, the last included, a probing step is judged on
 */
public record AimdController(double targetSeconds, double increase, double decreaseFactor, double headroom,
        double floor, double ceiling, long minRequests, int probeWindows) {

    /** An achieved rate this far under the limit means the limit is not what holds the job back. */
    static final double REACHED = 0.8;
    /** After a decrease, the share of the congested rate the limit climbs back to quickly. */
    static final double RECOVER_TO = 0.9;
    static final int RECOVERY_WINDOWS = 3;
    /** The share of its step by which the limit probes while under the rate of its last congestion. */
    static final double NEAR_CONGESTION_STEP = 0.2;
    /** A window's p95 this many times the target decreases the limit at once, unconfirmed. */
    static final double FAR_OVER = 1.5;

    /**
     * Where the controller is: in slow start (no decrease yet), settling (the last decision a decrease), the rate the
     * jobs achieved when the p95 last went over (NaN: never), what they achieved in the last window (NaN: unknown), and
     * whether the last window was over the target without a decrease (a second one confirms it).
     */
    public record Phase(boolean slowStart, boolean settling, double congestedAt, double lastAchieved, boolean overOnce) {
        public static final Phase START = new Phase(true, false, Double.NaN, Double.NaN, false);

        /**
         * The phase after {@code decision}, taken when the jobs achieved {@code achieved}.
         */
        public Phase after(Decision decision, double achieved, double limitBefore) {
            boolean decreased = decision.kind() == Kind.DECREASE;
            return new Phase(slowStart && !decreased, decreased,
                    decreased ? congestedRate(achieved, limitBefore) : congestedAt, achieved, decision.kind() == Kind.WAIT);
        }

        /**
         * The rate the jobs reached when the users' p95 went over: the higher of this window's and the last one's (in
         * the windows the users felt, the stores' stall already held the jobs back, and a rate taken from them settles
         * far under the knee), never above the limit they had; the limit when neither is known.
         */
        double congestedRate(double achieved, double limit) {
            double recent = Math.max(achieved > 0 ? achieved : 0, lastAchieved > 0 ? lastAchieved : 0);
            return recent > 0 ? Math.min(recent, limit) : limit;
        }
    }

    public AimdController {
        if (!(targetSeconds > 0) || !(increase > 0) || !(decreaseFactor > 0 && decreaseFactor < 1)
                || !(headroom > 0 && headroom <= 1) || !(floor > 0) || ceiling < 0 || (ceiling > 0 && ceiling < floor)
                || minRequests < 1 || probeWindows < 1) {
            throw new IllegalArgumentException("a hold needs a target p95 > 0, an increase > 0, a decrease factor "
                    + "between 0 and 1, a headroom in (0, 1], a floor > 0, a ceiling of 0 (none) or at least the floor, at "
                    + "least 1 request a window and at least 1 window to judge a probe on");
        }
    }

    /** WAIT: over the target, a decrease not confirmed yet (or the last one not showing yet). */
    public enum Kind { INCREASE, DECREASE, HOLD, WAIT }

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
     * @param probeSpan the users' requests in the last {@code probeWindows} windows (fewer after a start or an API
     *                 restart), this one included
     * @param achieved docs/s the throttled jobs let through in the window (NaN: unknown)
     * @param phase    where the controller is
     */
    public Decision decide(double limit, LatencyHistogram window, LatencyHistogram probeSpan, double achieved, Phase phase) {
        long requests = window.count();
        if (requests < minRequests) {
            return new Decision(Kind.HOLD, limit, requests + " requests, fewer than " + minRequests + ": too few to judge");
        }
        double p95 = window.quantile(0.95);
        if (p95 > targetSeconds) {
            if (phase.settling()) {
                return new Decision(Kind.WAIT, limit, "p95 " + ms(p95) + " over the target, but the last decrease "
                        + "may not show yet");
            }
            boolean farOver = p95 > FAR_OVER * targetSeconds;
            if (!farOver && !phase.overOnce()) {
                return new Decision(Kind.WAIT, limit, "p95 " + ms(p95) + " over the target " + ms(targetSeconds)
                        + " once: a decrease if the next window is too");
            }
            return new Decision(Kind.DECREASE, bounded(phase.congestedRate(achieved, limit) * decreaseFactor), "p95 "
                    + ms(p95) + " over the target " + ms(targetSeconds) + (farOver ? " by far" : ", twice"));
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
            return new Decision(Kind.HOLD, limit, reading + " near the target " + ms(targetSeconds));
        }
        String under = reading + " under " + Math.round(headroom * 100) + "% of the target " + ms(targetSeconds);
        if (phase.slowStart()) {
            return new Decision(Kind.INCREASE, bounded(2 * limit), under + " (slow start: doubled)");
        }
        if (recovering) {
            return new Decision(Kind.INCREASE, bounded(Math.max(limit + increase, limit + (recovered - limit) / RECOVERY_WINDOWS)),
                    under + String.format(Locale.ROOT, " (recovering towards %.0f docs/s)", recovered));
        }
        if (limit < phase.congestedAt()) {
            return new Decision(Kind.INCREASE, bounded(limit + increase * NEAR_CONGESTION_STEP), under + String.format(
                    Locale.ROOT, " (under the last congestion at %.0f docs/s: a smaller step)", phase.congestedAt()));
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
