package io.volumizer.ops.throttle.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.throttle.hold.AimdController.Kind;
import io.volumizer.ops.throttle.hold.AimdController.Phase;
import io.volumizer.options.conventions.ApiRouteGroup;

class AimdControllerTest {

    private static final Phase AFTER_A_DECREASE_LONG_AGO = new Phase(false, false, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
    private static final Phase SETTLING = new Phase(false, true, 900, 1000, Double.NaN, Double.NaN, 0);
    private static final AimdController CONTROLLER = new AimdController(0.05, 25, 0.7, 0.8, 10, 1000, 50, 6, 2);

    /** A window of navigation requests: {@code fast} under 10 ms, {@code slow} between 10 and 100 ms. */
    private static LatencyHistogram window(int fast, int slow) {
        return LatencyHistogram.of(LatencyHistogramTest.scrape(fast, slow, 0, 0), ApiRouteGroup.NAVIGATION);
    }

    @Test
    void raisesByAStepWhileUsersAreComfortablyUnderTheTarget() {
        AimdController.Decision decision = CONTROLLER.decide(200, window(100, 0), window(100, 0), window(100, 0), 198, AFTER_A_DECREASE_LONG_AGO);
        assertThat(decision.kind()).isEqualTo(Kind.INCREASE);
        assertThat(decision.limit()).isEqualTo(225);
    }

    @Test
    void doublesUntilItsFirstDecrease() {
        AimdController.Decision decision = CONTROLLER.decide(200, window(100, 0), window(100, 0), window(100, 0), 198, Phase.START);
        assertThat(decision.limit()).isEqualTo(400);
        assertThat(decision.reason()).contains("slow start");
        assertThat(CONTROLLER.decide(800, window(100, 0), window(100, 0), window(100, 0), 800, Phase.START).limit()).as("at the ceiling").isEqualTo(1000);
    }

    @Test
    void slowStartEndsAtTheFirstWindowNearTheTarget() {
        // about 44 ms of a 50 ms target, over the 80% headroom: held there, and slow start is over
        AimdController.Decision near = CONTROLLER.decide(400, window(92, 8), window(92, 8), window(92, 8), 400, Phase.START);
        assertThat(near.kind()).isEqualTo(Kind.HOLD);
        assertThat(near.endsSlowStart()).isTrue();
        Phase after = Phase.START.after(near, 400, 400, 0.044);
        assertThat(after.slowStart()).isFalse();
        // a comfortable window next adds a step; it does not double
        assertThat(CONTROLLER.decide(400, window(100, 0), window(100, 0), window(100, 0), 400, after).limit()).isEqualTo(425);
        // a window just over the target that the last ten seconds absorb ends it too
        AimdController.Decision absorbed = CONTROLLER.decide(400, window(90, 10), window(290, 10), window(290, 10), 400,
                Phase.START);
        assertThat(absorbed.kind()).isEqualTo(Kind.HOLD);
        assertThat(Phase.START.after(absorbed, 400, 400, 0.055).slowStart()).isFalse();
        // a hold for another reason (too few requests) keeps slow start
        AimdController.Decision tooFew = CONTROLLER.decide(400, window(10, 0), window(10, 0), window(10, 0), 400, Phase.START);
        assertThat(Phase.START.after(tooFew, 400, 400, 0.005).slowStart()).isTrue();
    }

    @Test
    void slowStartGrowsCautiouslyOnceTheUsersP95DoublesFromItsLowestThenEnds() {
        // 100 fast: rank 95 at 9.5 ms, the lowest so far
        Phase phase = Phase.START.after(CONTROLLER.decide(100, window(100, 0), window(100, 0), window(100, 0), 100,
                Phase.START), 100, 100, 0.0095);
        assertThat(phase.lowestP95()).isEqualTo(0.0095);
        // 6 slow of 100: rank 95 at 0.01 + 0.09 * 1/6 = 25 ms, under the 80% headroom but over twice 9.5 ms
        AimdController.Decision risen = CONTROLLER.decide(200, window(94, 6), window(94, 6), window(194, 6), 200, phase);
        assertThat(risen.kind()).isEqualTo(Kind.INCREASE);
        assertThat(risen.limit()).as("a quarter more, not double").isEqualTo(250);
        assertThat(risen.reason()).contains("cautiously", "2.6 times the lowest p95, 9.5 ms", "window 1 of 5");
        assertThat(risen.endsSlowStart()).isFalse();
        Phase cautious = phase.after(risen, 200, 200, 0.025);
        assertThat(cautious.slowStart()).isTrue();
        assertThat(cautious.cautiousWindows()).isEqualTo(1);
        assertThat(cautious.lowestP95()).as("a cautious window is not a lowest").isEqualTo(0.0095);
        // once risen, a quiet window does not double again
        AimdController.Decision quiet = CONTROLLER.decide(250, window(100, 0), window(100, 0), window(300, 0), 250, cautious);
        assertThat(quiet.limit()).isEqualTo(312.5);
        // the fifth cautious window ends slow start; probes from there are additive
        Phase fourth = new Phase(true, false, Double.NaN, 400, 0.0095, 400, 4);
        AimdController.Decision fifth = CONTROLLER.decide(400, window(100, 0), window(100, 0), window(100, 0), 400, fourth);
        assertThat(fifth.limit()).isEqualTo(500);
        assertThat(fifth.endsSlowStart()).isTrue();
        Phase after = fourth.after(fifth, 400, 400, 0.0095);
        assertThat(after.slowStart()).isFalse();
        assertThat(CONTROLLER.decide(500, window(100, 0), window(100, 0), window(100, 0), 500, after).limit()).isEqualTo(525);
    }

    @Test
    void aWindowRisenOverTheHeadroomHoldsAndEndsSlowStart() {
        Phase phase = new Phase(true, false, Double.NaN, 200, 0.0095, Double.NaN, 0);
        // 8 slow of 100: 43.75 ms, over the 80% headroom of 50 ms, though the span is quiet
        AimdController.Decision near = CONTROLLER.decide(200, window(92, 8), window(92, 8), window(500, 8), 200, phase);
        assertThat(near.kind()).isEqualTo(Kind.HOLD);
        assertThat(near.endsSlowStart()).isTrue();
        Phase after = phase.after(near, 200, 200, 0.04375);
        assertThat(after.lowestP95()).as("a hold is not a lowest").isEqualTo(0.0095);
        assertThat(after.comfortableAt()).as("nor a comfortable rate").isNaN();
    }

    @Test
    void aWindowNearTheTargetEndsSlowStartEvenWhenTheJobsFallShortOfTheLimit() {
        // 8 slow of 100: 43.75 ms, over the 80% headroom; the jobs reached 4,000 of 6,400 docs/s
        AimdController.Decision shortOfTheLimit = CONTROLLER.decide(6400, window(92, 8), window(92, 8), window(92, 8),
                4000, Phase.START);
        assertThat(shortOfTheLimit.reason()).contains("would change nothing");
        assertThat(shortOfTheLimit.endsSlowStart()).isTrue();
        assertThat(CONTROLLER.decide(6400, window(100, 0), window(100, 0), window(100, 0), 4000, Phase.START)
                .endsSlowStart()).isFalse();
    }

    @Test
    void climbsBackTowardsTheCongestedRateQuicklyThenProbesByItsStep() {
        Phase recoveringTo800 = new Phase(false, false, 800, 300, Double.NaN, Double.NaN, 0);
        // 800 in three windows: from 200, a third of the 600 left
        assertThat(CONTROLLER.decide(200, window(100, 0), window(100, 0), window(100, 0), 200, recoveringTo800).limit()).isEqualTo(400);
        assertThat(CONTROLLER.decide(790, window(100, 0), window(100, 0), window(100, 0), 790, recoveringTo800).limit()).isEqualTo(815);
    }

    @Test
    void climbsBackOnlyAsFarAsTheUsersWereComfortable() {
        Phase comfortableAt700 = new Phase(false, false, Double.NaN, 650, Double.NaN, Double.NaN, 0)
                .after(new AimdController.Decision(Kind.INCREASE, 725, "under"), 700, 700, 0.02);
        assertThat(comfortableAt700.comfortableAt()).isEqualTo(700);
        // a hold near the target does not make a rate comfortable
        Phase heldAt1000 = comfortableAt700.after(new AimdController.Decision(Kind.HOLD, 1000, "near", true), 1000, 1000, 0.045);
        assertThat(heldAt1000.comfortableAt()).isEqualTo(700);
        // congested at the higher of this window's 600 and the last one's 1000 (the stall held this one back): 0.8 of
        // it is 800, but users were comfortable only up to 700
        Phase cut = heldAt1000.after(new AimdController.Decision(Kind.DECREASE, 420, "over"), 600, 1000, 0.09);
        assertThat(cut).isEqualTo(new Phase(false, true, 700, 600, Double.NaN, Double.NaN, 0));
        // congested at 500 after being comfortable at 700: back to 0.8 of 500 (never above the limit the jobs had)
        assertThat(comfortableAt700.after(new AimdController.Decision(Kind.DECREASE, 350, "over"), 600, 500, 0.09)
                .recoverTo()).isEqualTo(400);
        // no comfortable window since the last decrease: nothing to climb back to, it probes from the cut
        Phase noneComfortable = cut.after(new AimdController.Decision(Kind.DECREASE, 300, "over"), 500, 600, 0.09);
        assertThat(noneComfortable.recoverTo()).isNaN();
        assertThat(CONTROLLER.decide(300, window(100, 0), window(100, 0), window(100, 0), 300,
                noneComfortable.after(new AimdController.Decision(Kind.HOLD, 300, "settling"), 300, 300, 0.03)).limit())
                .isEqualTo(325);
    }

    @Test
    void cutsByItsFactorFromWhatTheJobsAchievedWhenOverTheTarget() {
        // p95 of 50 fast, 50 slow: (0.01, 0.1] at rank 95, about 91 ms
        assertThat(CONTROLLER.decide(400, window(50, 50), window(50, 50), window(50, 50), 400, AFTER_A_DECREASE_LONG_AGO))
                .satisfies(d -> assertThat(d.kind()).isEqualTo(Kind.DECREASE))
                .satisfies(d -> assertThat(d.limit()).isEqualTo(280));
        // the jobs achieved less than the limit: the cut starts from what they achieved
        assertThat(CONTROLLER.decide(400, window(50, 50), window(50, 50), window(50, 50), 100, AFTER_A_DECREASE_LONG_AGO).limit()).isEqualTo(70);
        // never under the floor, never 0
        assertThat(CONTROLLER.decide(12, window(50, 50), window(50, 50), window(50, 50), 12, AFTER_A_DECREASE_LONG_AGO).limit()).isEqualTo(10);
    }

    @Test
    void cutsFromTheRecentRateNotFromAWindowAStallDepressed() {
        Phase ranAt900 = new Phase(false, false, Double.NaN, 900, Double.NaN, Double.NaN, 0);
        // the window over the target achieved 300 docs/s after 900: the cut starts from 900
        assertThat(CONTROLLER.decide(1000, window(50, 50), window(50, 50), window(50, 50), 300, ranAt900).limit()).isEqualTo(630);
        // never from more than the limit
        assertThat(CONTROLLER.decide(500, window(50, 50), window(50, 50), window(50, 50), 300, ranAt900).limit()).isEqualTo(350);
    }

    @Test
    void cutsOnlyWhenTheLastTenSecondsAreOverTooUnlessTheWindowIsFarOver() {
        // a window just over (10 slow of 100: 55 ms) in a span under the target (rank 285 of 300 among the fast)
        AimdController.Decision held = CONTROLLER.decide(400, window(90, 10), window(290, 10), window(290, 10), 400,
                AFTER_A_DECREASE_LONG_AGO);
        assertThat(held.kind()).isEqualTo(Kind.HOLD);
        assertThat(held.reason()).contains("over the last 300 requests");
        // the span over too (20 slow of 200: rank 190, 10 into the slow bucket: 55 ms)
        assertThat(CONTROLLER.decide(400, window(90, 10), window(180, 20), window(180, 20), 400,
                AFTER_A_DECREASE_LONG_AGO).kind()).isEqualTo(Kind.DECREASE);
        // a window far over the target (about 91 ms) cuts whatever the span before it
        assertThat(CONTROLLER.decide(400, window(50, 50), window(1000, 50), window(1000, 50), 400,
                AFTER_A_DECREASE_LONG_AGO).kind()).isEqualTo(Kind.DECREASE);
    }

    @Test
    void waitsOneWindowForADecreaseToShow() {
        assertThat(CONTROLLER.decide(280, window(50, 50), window(50, 50), window(50, 50), 280, SETTLING).kind()).isEqualTo(Kind.HOLD);
    }

    @Test
    void holdsNearTheTargetOnTooFewRequestsAndWhenTheLimitIsNotWhatHoldsTheJobsBack() {
        // p95 between 80 and 100% of the target: 6 slow of 100 puts rank 95 at 0.01 + 0.09 * 1/6 = 25 ms: comfortable;
        // 10 slow of 100 puts it at 0.01 + 0.09 * 5/10 = 55 ms: over; 8 slow: 0.01 + 0.09 * 3/8 = 43.75 ms: near
        assertThat(CONTROLLER.decide(200, window(92, 8), window(92, 8), window(92, 8), 200, AFTER_A_DECREASE_LONG_AGO).kind()).isEqualTo(Kind.HOLD);
        assertThat(CONTROLLER.decide(200, window(20, 0), window(20, 0), window(20, 0), 200, AFTER_A_DECREASE_LONG_AGO).reason()).contains("too few");
        assertThat(CONTROLLER.decide(200, window(100, 0), window(100, 0), window(100, 0), 120, AFTER_A_DECREASE_LONG_AGO))
                .satisfies(d -> assertThat(d.kind()).isEqualTo(Kind.HOLD))
                .satisfies(d -> assertThat(d.reason()).contains("would change nothing"));
        assertThat(CONTROLLER.decide(200, window(100, 0), window(100, 0), window(100, 0), Double.NaN, AFTER_A_DECREASE_LONG_AGO).kind()).isEqualTo(Kind.HOLD);
        assertThat(CONTROLLER.decide(1000, window(100, 0), window(100, 0), window(100, 0), 1000, AFTER_A_DECREASE_LONG_AGO).kind()).isEqualTo(Kind.HOLD);
    }

    @Test
    void probesOnlyWhenTheWholeSpanIsComfortablyUnderTheTarget() {
        // a fast window after slower ones: 100 fast, in a span of 200 fast and 18 slow (rank 207.1 of 218, 7.1 into
        // the slow bucket: 0.01 + 0.09 * 7.1/18 = 45.5 ms, between 80% of the target and the target)
        AimdController.Decision held = CONTROLLER.decide(200, window(100, 0), window(100, 0), window(200, 18), 200, AFTER_A_DECREASE_LONG_AGO);
        assertThat(held.kind()).isEqualTo(Kind.HOLD);
        assertThat(held.reason()).contains("over the last 218 requests");
        // and a window near the target in a span comfortably under it does not stop the probing
        assertThat(CONTROLLER.decide(200, window(92, 8), window(92, 8), window(500, 8), 200, AFTER_A_DECREASE_LONG_AGO).kind())
                .isEqualTo(Kind.INCREASE);
        // recovering towards a rate known to hold is judged on the window alone
        Phase recoveringTo800 = new Phase(false, false, 800, 300, Double.NaN, Double.NaN, 0);
        assertThat(CONTROLLER.decide(300, window(100, 0), window(100, 0), window(200, 18), 300, recoveringTo800).kind())
                .isEqualTo(Kind.INCREASE);
        // and a window far over the target cuts whatever the spans
        assertThat(CONTROLLER.decide(400, window(50, 50), window(50, 50), window(500, 50), 400, AFTER_A_DECREASE_LONG_AGO).kind())
                .isEqualTo(Kind.DECREASE);
    }

    @Test
    void refusesSettingsThatCannotConverge() {
        for (List<Double> bad : List.of(List.of(0.0, 25.0, 0.7), List.of(0.05, 0.0, 0.7), List.of(0.05, 25.0, 1.0))) {
            assertThatThrownBy(() -> new AimdController(bad.get(0), bad.get(1), bad.get(2), 0.8, 10, 0, 50, 6, 2))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> new AimdController(0.05, 25, 0.7, 0.8, 10, 0, 50, 0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AimdController(0.05, 25, 0.7, 0.8, 10, 0, 50, 6, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
