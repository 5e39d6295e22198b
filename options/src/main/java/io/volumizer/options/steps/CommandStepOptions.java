package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import io.volumizer.schemas.keys.RepositoryNames;
import picocli.CommandLine.Option;

/**
 * What the steps that run a command (a reindex, a bulk update) have: the repository they work on and the id of the
 * command record their progress goes to. The command id tells their runs apart: a resumed or retried command runs
 * under the same id, into the same checkpoint folder and status.
 */
public abstract class CommandStepOptions extends PipelineStepOptions {

    /** What a command id may be: it names a checkpoint folder and goes in URLs as it is. */
    public static final String COMMAND_ID_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,99}";

    @Option(names = "--repository", required = true, description = "The repository to work on.")
    public String repository;

    @Option(names = "--command-id", required = true, description = "The command this run does, whose status it writes.")
    public String commandId;

    @Override
    protected final void validateStep() {
        require(RepositoryNames.isValid(repository), "--repository must be " + RepositoryNames.RULE + ", was '" + repository + "'");
        require(commandId.matches(COMMAND_ID_PATTERN), "--command-id must be 1-100 letters, digits, '.', '_' or '-', "
                + "starting with a letter or digit, was '" + commandId + "'");
        validateCommand();
    }

    /** @throws IllegalArgumentException naming the command's option that is wrong and why */
    protected abstract void validateCommand();

    @Override
    public String instance() {
        return commandId;
    }

    @Override
    public String ownThrottleTarget() {
        return commandId;
    }
}
