package io.volumizer.options;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Typed options (picocli {@code @Command} and mixin classes) read from arguments the same way everywhere: on the
 * command line, in the Flink Web UI's "Program Arguments" field, and by the tools that submit jobs, which parse a
 * step's options on the client before anything is uploaded; and arguments derived back from an options object
 * through picocli's model, so that what a tool submits is exactly what the job parses.
 */
public final class Options {

    /** An options class that checks relations between values after parsing. */
    public interface Validated {
        /** @throws IllegalArgumentException naming the option that is wrong and why */
        void validate();
    }

    /** Arguments that do not make valid options: one line naming the option at fault, and the command's usage. */
    public static final class InvalidOptionsException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;
        private final String usage;

        InvalidOptionsException(String reason, String usage, Throwable cause) {
            // Whole, for the Flink Web UI, which shows a failed submission's message.
            super(reason + System.lineSeparator() + System.lineSeparator() + usage, cause);
            this.usage = usage;
        }

        /** The one line: which option, and what is wrong with it. */
        public String reason() {
            return getMessage().substring(0, getMessage().length() - usage.length()).strip();
        }

        public String usage() {
            return usage;
        }
    }

    private Options() {
    }

    /**
     * Parses and validates; the same option given twice is refused.
     *
     * @return the options, or {@code null} when help was asked for (and printed)
     * @throws InvalidOptionsException on an unknown option, a value of the wrong type or a failed validation
     */
    public static <T> T parse(T options, String... args) {
        return parse(options, false, List.of(args));
    }

    /**
     * Parses and validates {@code args} in which a later option replaces an earlier one of the same name: a base
     * (say, the endpoints of the local services) followed by what a user or a caller sets.
     */
    public static <T> T parseWithOverrides(T options, List<String> args) {
        return parse(options, true, args);
    }

    /** An options object holding every default. */
    public static <T> T defaults(T options) {
        return parse(options);
    }

    private static <T> T parse(T options, boolean overridesAllowed, List<String> args) {
        CommandLine commandLine = new CommandLine(options).setOverwrittenOptionsAllowed(overridesAllowed);
        try {
            commandLine.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new InvalidOptionsException(e.getMessage(), commandLine.getUsageMessage(), e);
        }
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            return null;
        }
        if (options instanceof Validated validated) {
            try {
                validated.validate();
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionsException(e.getMessage(), commandLine.getUsageMessage(), e);
            }
        }
        return options;
    }

    /** The usage message of an options class, as {@code --help} prints it. */
    public static String usage(Object options) {
        return new CommandLine(options).getUsageMessage();
    }

    /**
     * The arguments that parse into {@code options}: every option that holds a value, by its first declared name
     * (its current one: a renamed option keeps its old name second, for command lines that still use it), read from
     * picocli's model of the class (mixins included), never listed by hand.
     */
    public static List<String> arguments(Object options) {
        List<String> args = new ArrayList<>();
        for (OptionSpec option : CommandSpec.forAnnotatedObject(options).options()) {
            Object value = option.getValue();
            if (option.usageHelp() || option.versionHelp() || value == null || fromEnvironment(option)) {
                continue;
            }
            String name = option.names()[0];
            if (option.arity().max() == 0) {
                if (Boolean.TRUE.equals(value)) {
                    args.add(name);
                }
            } else if (value instanceof Collection<?> values) {
                for (Object item : values) {
                    args.add(name);
                    args.add(String.valueOf(item));
                }
            } else if (value instanceof Map<?, ?> entries) {
                for (Map.Entry<?, ?> entry : entries.entrySet()) {
                    args.add(name);
                    args.add(entry.getKey() + "=" + entry.getValue());
                }
            } else {
                args.add(name);
                args.add(String.valueOf(value));
            }
        }
        return args;
    }

    /**
     * Whether the option holds what its default read from the environment ({@code ${env:NAME...}}): a secret such
     * as a connection string or a token, which the process it is given to reads from its own environment, and which
     * must not end up in a job's arguments (the Web UI and the REST API show those).
     */
    private static boolean fromEnvironment(OptionSpec option) {
        // picocli keeps only the interpolated default, so the declaration is read from the annotated field
        Option declared = option.userObject() instanceof AnnotatedElement field
                ? field.getAnnotation(Option.class) : null;
        if (declared == null || !declared.defaultValue().startsWith("${env:")) {
            return false;
        }
        // ${env:NAME} or ${env:NAME:-fallback}: only a value the variable holds stays out (a fallback is no secret)
        String variable = declared.defaultValue().substring("${env:".length()).split("[:}]", 2)[0];
        return String.valueOf((Object) option.getValue()).equals(System.getenv(variable));
    }

    /**
     * {@link #arguments(Object) The arguments} of {@code options}, then {@code more}: for {@link
     * #parseWithOverrides}, where what comes later wins (a step's options on top of the pipeline's, say).
     */
    public static List<String> with(Object options, String... more) {
        List<String> args = arguments(options);
        args.addAll(List.of(more));
        return args;
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code condition} holds. */
    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
