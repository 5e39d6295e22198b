package io.volumizer.ops.throttle.hold;

import java.util.Locale;

/**
 * The hold mode's rule: additive increase, multiplicative decrease (TCP's congestion control), on the users' p95
 * of the last window. Users' latency is a steep, noisy function of the import's rate on a shared machine (flat,
 * then a knee where the stores saturate), and a change shows only after Elasticsearch's refreshes and merges
 * catch up: a PID loop tuned for one machine's slope oscillates on another's, while AIMD needs only the target.
 * It probes upwards slowly, backs off fast, and settles in a saw-tooth just below the knee. Until the users feel the
 * import it doubles the limit instead of adding to it (TCP's slow start): from a cautious first limit it finds the
 * knee in a few windows, not in minutes of additive steps. It grows by a quarter instead, for
 * {@value #CAUTIOUS_WINDOWS} windows at most, once a window's p95 is {@value #RISE} times the lowest slow start has seen,
 * and stops at the first window near the target: HyStart++'s conservative slow start (RFC 9406), which ends TCP's
 * when the round trip grows. The p95 rises well before the knee, so doubling on until it comes near the target
 * overshoots far past the knee; yet a single window's p95 varies twofold at one rate, so one window risen ends
 * nothing. A decrease cuts the jobs' recent rate (not a stalled window's) by its factor; then the limit climbs back
 * in {@value #RECOVERY_WINDOWS} windows to {@value #RECOVER_TO} of that rate, but never above the highest rate users
 * were last comfortable at, and only probes from there by additive steps (as CUBIC returns fast to its last
 * congestion window and probes slowly around it): additive steps alone, sized for one machine, take minutes to climb
 * back thousands of docs/s on another. The rate at a congestion is measured late, past the knee, so climbing back
 * close to it alone would overshoot again.
 *
 * <p>A decrease is judged on the p95 of the last {@code decreaseWindows} windows together, the span the users' figure
 * counts (10 s), and only once the last window is over the target too: one slow window inside a span that stays
 * under is noise, and a cut on every such window costs the import much of its rate. A window far over the target
 * ({@value #FAR_OVER} times) cuts at once. A probing step beyond the recovery is judged on the p95 of the last
 * {@code probeWindows} windows together: a window holds a few dozen requests, whose p95 is their third or fourth
 * slowest, so a probe on one lucky window climbs past the knee, while a headroom wide enough to absorb that noise
 * stops the climb far below it. The measurements behind each rule: docs/decisions/aimd-for-hold-mode.md.
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
    static final double RECOVER_TO = 0.8;
    static final int RECOVERY_WINDOWS = 3;
    /** A window's p95 this many times the lowest seen in slow start: the users feel the import. */
    static final double RISE = 2;
    /** Slow start's growth a window once the users feel the import, and for how many windows at most. */
    static final double CAUTIOUS_GROWTH = 1.25;
    static final int CAUTIOUS_WINDOWS = 5;

    /**
     * Where the controller is: in slow start (no decrease yet), settling (the last decision a decrease), the rate the
     * limit climbs back to quickly after the last decrease (NaN: none), what the jobs achieved in the last window (NaN:
     * unknown), the lowest p95 of the windows slow start doubled on (NaN: none yet), the highest rate achieved in a
     * window comfortably under the target since the last decrease (NaN: none), and how many windows slow start has
     * grown cautiously.
     */
    public record Phase(boolean slowStart, boolean settling, double recoverTo, double lastAchieved, double lowestP95,
            double comfortableAt, int cautiousWindows) {
        public static final Phase START = new Phase(true, false, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);

        /**
         * The phase after {@code decision}, taken on a window of p95 {@code p95} in which the jobs achieved
         * {@code achieved}. A decrease sets the rate to climb back to from the {@linkplain #recentRate recent rate}
         * (recovering towards a rate a stall depressed settles far under the knee), bounded by the rate users were
         * comfortable at: without one since the decrease before, nothing says a higher rate holds, and it only probes.
         */
        public Phase after(Decision decision, double achieved, double limitBefore, double p95) {
            boolean decreased = decision.kind() == Kind.DECREASE;
            boolean increased = decision.kind() == Kind.INCREASE;
            boolean grewCautiously = increased && cautious(p95);
            boolean doubled = increased && slowStart && !grewCautiously;
            return new Phase(slowStart && !decreased && !decision.endsSlowStart(), decreased,
                    decreased ? Math.min(RECOVER_TO * recentRate(achieved, limitBefore), comfortableAt) : recoverTo,
                    achieved,
                    doubled && (Double.isNaN(lowestP95) || p95 < lowestP95) ? p95 : lowestP95,
                    decreased ? Double.NaN
                            : increased && (Double.isNaN(comfortableAt) || achieved > comfortableAt) ? achieved : comfortableAt,
                    cautiousWindows + (grewCautiously ? 1 : 0));
        }

        /** Whether slow start grows cautiously after a window of p95 {@code p95}: once one has risen, for good. */
        boolean cautious(double p95) {
            return slowStart && (cautiousWindows > 0 || p95 >= RISE * lowestP95);
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
     * @param endsSlowStart whether the p95 judged came near the target (over the headroom, or a window over it that
     *                   the span absorbs), or slow start grew cautiously for its last window
     */
    public record Decision(Kind kind, double limit, String reason, boolean endsSlowStart) {
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
     * @param probeSpan the users' requests in the last {@code probeWindows} windows (fewer after a start, an API
     *                 restart, or the end of slow start: none before its last window), this one included
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
            // From the recent rate: a cut from a window whose import stalled would start from a depressed rate, far
            // under the knee, and the recovery would take a minute.
            return new Decision(Kind.DECREASE, bounded(phase.recentRate(achieved, limit) * decreaseFactor), "p95 "
                    + ms(p95) + " over the target " + ms(targetSeconds));
        }
        boolean nearInSlowStart = phase.slowStart() && p95 > targetSeconds * headroom;
        if (!(achieved >= REACHED * limit)) {
            return new Decision(Kind.HOLD, limit, String.format(Locale.ROOT, "p95 %s under the target, but the jobs "
                    + "achieve %.0f docs/s of %.0f: a higher limit would change nothing", ms(p95), achieved, limit),
                    nearInSlowStart);
        }
        if (ceiling > 0 && limit >= ceiling) {
            return new Decision(Kind.HOLD, limit, "p95 " + ms(p95) + " under the target, at the ceiling", nearInSlowStart);
        }
        boolean recovering = !phase.slowStart() && limit + increase < phase.recoverTo();
        boolean probing = !phase.slowStart() && !recovering;
        double judged = probing ? probeSpan.quantile(0.95) : p95;
        String reading = probing ? "p95 " + ms(judged) + " over the last " + probeSpan.count() + " requests" : "p95 " + ms(p95);
        if (judged > targetSeconds * headroom) {
            return new Decision(Kind.HOLD, limit, reading + " near the target " + ms(targetSeconds), true);
        }
        String under = reading + " under " + Math.round(headroom * 100) + "% of the target " + ms(targetSeconds);
        if (phase.cautious(p95)) {
            int windows = phase.cautiousWindows() + 1;
            return new Decision(Kind.INCREASE, bounded(CAUTIOUS_GROWTH * limit), under + String.format(Locale.ROOT,
                    " (slow start, cautiously: %.1f times the lowest p95, %s; window %d of %d)", p95 / phase.lowestP95(),
                    ms(phase.lowestP95()), windows, CAUTIOUS_WINDOWS), windows >= CAUTIOUS_WINDOWS);
        }
        if (phase.slowStart()) {
            return new Decision(Kind.INCREASE, bounded(2 * limit), under + " (slow start: doubled)");
        }
        if (recovering) {
            return new Decision(Kind.INCREASE, bounded(Math.max(limit + increase, limit + (phase.recoverTo() - limit) / RECOVERY_WINDOWS)),
                    under + String.format(Locale.ROOT, " (recovering towards %.0f docs/s)", phase.recoverTo()));
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
