package io.volumizer.options;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * What a command prints when its work fails (a service unreachable, a job that fails): one line, the command and
 * the innermost cause, not a stack trace; exit code 1.
 */
public final class Failures {

    private Failures() {
    }

    /** A picocli execution exception handler. */
    public static int oneLine(Exception failure, CommandLine command, ParseResult parsed) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = failure.getMessage() == null ? cause.toString() : failure.getMessage()
                + (cause == failure || failure.getMessage().contains(String.valueOf(cause.getMessage())) ? ""
                        : " (" + cause + ")");
        command.getErr().println(command.getCommandName() + ": " + message);
        return 1;
    }
}
