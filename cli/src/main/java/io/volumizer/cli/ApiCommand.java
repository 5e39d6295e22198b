package io.volumizer.cli;

import java.util.concurrent.Callable;

import io.volumizer.api.ApiOptions;
import io.volumizer.api.ApiServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code volumizer api}: the repository REST API, in the foreground, until the process is stopped. */
@Command(name = "api", description = "Serves the repository's REST API on the local services, in the foreground "
        + "(bin/volumizer api start and stop run it in the background).")
public final class ApiCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin ApiOptions options = new ApiOptions();

    @Override
    public Integer call() throws Exception {
        try {
            options.validate();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ApiServer.serve(options);
        Thread.currentThread().join(); // the servers run until the JVM stops (their shutdown hook closes them)
        return 0;
    }
}
