package io.volumizer.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code volumizer import-csv <repository> <file|folder|s3://...>}: the import-csv step on the repository's topics. */
@Command(name = "import-csv", mixinStandardHelpOptions = true, description = "Imports CSV files (the generator's "
        + "export, nuxeo-csv) into a repository: 'job submit import-csv' on the repository's topics.",
        footer = {"%nExample:", "  bin/volumizer import-csv demo /tmp/run --blobs /tmp/run/blobs"})
public final class ImportCsvCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "REPOSITORY", description = "The repository, whose topics the job uses.")
    String repository;

    @Parameters(index = "1", paramLabel = "FILE|FOLDER|s3://...", description = "A CSV file, a folder of them, or an S3 prefix.")
    String path;

    @Parameters(index = "2..*", arity = "0..*", paramLabel = "OPTIONS", description = "More options of the step "
            + "(see the steps' options: --blobs DIR...).")
    List<String> options = new ArrayList<>();

    @Override
    public Integer call() {
        String location = path.startsWith("s3://") ? path : Path.of(path).toAbsolutePath().normalize().toString();
        List<String> args = new ArrayList<>(List.of("submit", "import-csv", "--topics-of", repository,
                "--repository", repository, "--path", location));
        args.addAll(options);
        return spec.root().subcommands().get("job").execute(args.toArray(String[]::new));
    }
}
