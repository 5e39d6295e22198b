package io.volumizer.jobs.options;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Parses a job's typed options (a picocli {@code @Command} class) from program arguments, the same way on the
 * command line and in the Flink Web UI's "Program Arguments" field.
 *
 * <p>Options classes validate in a {@link Validated#validate()} method; any problem becomes an
 * {@link IllegalArgumentException} naming the option, which Flink shows as the submission error.
 */
public final class JobOptions {

    /** An options class that checks relations between values after parsing. */
    public interface Validated {
        /** @throws IllegalArgumentException naming the option that is wrong and why */
        void validate();
    }

    private JobOptions() {
    }

    /**
     * @return the parsed options, or {@code null} when help was asked for (and printed)
     * @throws IllegalArgumentException on an unknown option, a value of the wrong type or a failed validation
     */
    public static <T> T parse(T options, String... args) {
        CommandLine commandLine = new CommandLine(options);
        try {
            commandLine.parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage() + System.lineSeparator() + commandLine.getUsageMessage(), e);
        }
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            return null;
        }
        if (options instanceof Validated) {
            ((Validated) options).validate();
        }
        return options;
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code condition} holds. */
    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
