package io.volumizer.harness;

import static io.volumizer.harness.Stats.max;
import static io.volumizer.harness.Stats.median;
import static io.volumizer.harness.Stats.min;
import static io.volumizer.harness.Stats.ratioWithRange;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A measure's figures by name, one per round ({@code "samples per round"} in a report's JSON): a run's rate with its
 * sustained rate ({@link #SUSTAINED}) and its dead letters ({@link #DEAD_LETTERED}), and the table cells of medians
 * and ratios of the rounds.
 */
public final class Samples {

    public static final String SUSTAINED = ", sustained";
    public static final String DEAD_LETTERED = ", dead-lettered";

    private final Map<String, List<Double>> byName = new LinkedHashMap<>();

    public void add(String what, double value) {
        byName.computeIfAbsent(what, k -> new ArrayList<>()).add(value);
    }

    public List<Double> of(String what) {
        return byName.get(what);
    }

    public double median(String what) {
        return Stats.median(of(what));
    }

    /** Per round, {@code figure / baseline}. */
    public List<Double> ratios(String figure, String baseline) {
        return Stats.ratios(of(figure), of(baseline));
    }

    /** A run's rate and its sustained rate, printed. */
    public void record(String what, Progress progress) {
        add(what, progress.rate());
        add(what + SUSTAINED, progress.sustainedRate());
        System.out.printf(Locale.ROOT, "%-45s %,10.0f docs/s, sustained %,10.0f docs/s (%s)%n", what, progress.rate(),
                progress.sustainedRate(), progress.describe());
    }

    /** A run's rate and sustained rate, and a job's dead letters, printed. */
    public void record(Through through) {
        Progress progress = through.progress();
        add(through.what(), progress.rate());
        add(through.what() + SUSTAINED, progress.sustainedRate());
        String deadLettered = "";
        if (through.countsDeadLetters()) {
            add(through.what() + DEAD_LETTERED, through.deadLettered());
            deadLettered = String.format(Locale.ROOT, ", %,d dead-lettered", through.deadLettered());
        }
        System.out.printf(Locale.ROOT, "%-45s %,10.0f docs/s, sustained %,10.0f docs/s (%s)%s%n", through.what(),
                progress.rate(), progress.sustainedRate(), progress.describe(), deadLettered);
    }

    /** {@code 20,550 (17,764)}, and for a job {@code , 0 dead-lettered} (with the rounds' range where they differ). */
    public String rates(String what) {
        String rates = String.format(Locale.ROOT, "%,.0f (%,.0f)", median(what + SUSTAINED), median(what));
        List<Double> deadLettered = of(what + DEAD_LETTERED);
        if (deadLettered == null) {
            return rates;
        }
        double least = min(deadLettered);
        double most = max(deadLettered);
        return rates + String.format(Locale.ROOT, least == most ? ", %,.0f dead-lettered" : ", %,.0f (%,.0f–%,.0f) dead-lettered",
                Stats.median(deadLettered), least, most);
    }

    /**
     * A table row: a measure against its baseline of the same rounds ({@code baselineName} before its rates, or
     * none), the ratios of their sustained and whole-run rates, and its target ({@code null}: none, a mechanism shown).
     */
    public String row(String what, String figure, String baselineName, String baseline, Double target) {
        List<Double> sustained = ratios(figure + SUSTAINED, baseline + SUSTAINED);
        return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |", what, rates(figure),
                baselineName.isEmpty() ? rates(baseline) : baselineName + " " + rates(baseline), ratioWithRange(sustained),
                ratioWithRange(ratios(figure, baseline)),
                target == null ? "" : "≥ " + BigDecimal.valueOf(target).stripTrailingZeros().toPlainString() + "×",
                target == null ? "" : Stats.median(sustained) >= target ? "yes" : "NO");
    }

    @JsonValue
    Map<String, List<Double>> byName() {
        return byName;
    }
}
