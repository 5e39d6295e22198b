package io.volumizer.ops.runs;

import java.util.List;
import java.util.concurrent.Callable;

import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.SessionOptions;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A tool that runs a generated repository through the pipeline on the session cluster (the demo, the benchmarks):
 * the pipeline's services, the cluster and its jobs jar, and the run's settings, all checked before anything runs.
 */
public abstract class PipelineRunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin public PipelineOptions pipeline = new PipelineOptions();
    @Mixin public SessionOptions session = new SessionOptions();
    @Mixin public GeneratorOptions run = new GeneratorOptions();
    @Mixin CheckOptions check = new CheckOptions();

    @Override
    public final Integer call() throws Exception {
        GeneratorSettings settings;
        try {
            settings = run.settings();
            pipeline.validate();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return check.only ? 0 : run(settings);
    }

    /** Runs the tool on a checked run; returns its exit code. */
    protected abstract int run(GeneratorSettings settings) throws Exception;

    /** The generate job's arguments: the pipeline's options, then the run's settings. */
    protected List<String> generateArguments() {
        List<String> args = Options.with(pipeline);
        args.addAll(Options.arguments(run));
        return args;
    }
}
