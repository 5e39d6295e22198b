package io.volumizer.ops.flink;

import java.nio.file.Path;

import io.volumizer.options.endpoints.FlinkOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The session cluster a tool runs steps on, and the jobs jar it uploads there (a picocli mixin). */
public final class SessionOptions {

    @Mixin public FlinkOptions flink = new FlinkOptions();

    @Option(names = "--jar", required = true, description = "The jobs jar to upload.")
    public Path jar;

    public FlinkSessionClient client() {
        return new FlinkSessionClient(flink.rest);
    }
}
