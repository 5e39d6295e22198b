package io.volumizer.benchmarks.calibration;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.volumizer.ops.plan.PlanComparison;
import io.volumizer.ops.plan.CalibrationOptions;
import io.volumizer.options.ResultsOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code bench plan-vs-published}: the planner against the published layouts ({@link PlanComparison}) from a
 * calibration and, with {@code --campaign}, a campaign run's costs at each size; measures nothing, needs no service.
 */
@Command(name = "plan-vs-published", mixinStandardHelpOptions = true, description = "Writes the planner's answers "
        + "for the published workloads beside their layouts, with the error of each row (plan-vs-published.md and "
        + ".json), from a calibration and a campaign run; measures nothing.",
        footer = {"%nExample:", "  bin/volumizer bench plan-vs-published --campaign benchmarks/results/growth"})
public final class PlanVsPublished implements Callable<Integer> {

    @Mixin CalibrationOptions costs = new CalibrationOptions();

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Override
    public Integer call() throws Exception {
        Path root = Path.of(System.getProperty("volumizer.root", "."));
        PlanComparison.write(costs.load(root), root, results.folder);
        return 0;
    }
}
