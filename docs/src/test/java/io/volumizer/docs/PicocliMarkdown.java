package io.volumizer.docs;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Markdown of picocli command models, as their {@code --help} would say it but laid out for reading: each command's
 * arguments and its own options in a table, and the options a class declares for several commands (the shared
 * mixins: the services' endpoints, the pipeline's topics...) in a table of their own that those commands link to.
 * Everything comes from the model and the annotations: a default as declared (an option read from the environment
 * shows the variable, never its value).
 */
final class PicocliMarkdown {

    /**
     * A command as the page shows it: its heading, its model, what a user types to run it (the heading itself for a
     * command of bin/volumizer), and whether only its options are shown (not its arguments and subcommands).
     */
    record Command(String heading, CommandSpec spec, String typed, boolean optionsOnly) {
        Command(String heading, CommandSpec spec) {
            this(heading, spec, heading, false);
        }

        Command(String heading, CommandSpec spec, String typed) {
            this(heading, spec, typed, false);
        }
    }

    /** An option as one command has it: a shared option's default may differ from one command to another. */
    private record Taken(String command, OptionSpec option) {
    }

    /** picocli's marker of an option without a declared default. */
    private static final String NO_DEFAULT = "__no_default_value__";
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(env|sys):([^:}]+)(?::-([^}]*))?}");

    /** Which commands take options a class declares, by class. */
    private final Map<Class<?>, Set<String>> takenBy = new LinkedHashMap<>();
    /** The classes that declare options for more than one tree of commands: their options are listed once. */
    private final Set<Class<?>> shared = new LinkedHashSet<>();
    /** Each option of a class as every command has it. */
    private final Map<Class<?>, List<Taken>> options = new LinkedHashMap<>();

    /**
     * @param trees every command tree of the page, each a list of its commands (the root first); a class whose
     *              options appear in two trees or more is shared
     */
    PicocliMarkdown(Collection<List<Command>> trees) {
        Map<Class<?>, Set<Integer>> treesOf = new LinkedHashMap<>();
        int tree = 0;
        for (List<Command> commands : trees) {
            for (Command command : commands) {
                for (OptionSpec option : visibleOptions(command.spec())) {
                    Optional<Class<?>> declaring = declaringClass(option);
                    if (declaring.isPresent()) {
                        takenBy.computeIfAbsent(declaring.get(), any -> new LinkedHashSet<>()).add(command.heading());
                        treesOf.computeIfAbsent(declaring.get(), any -> new LinkedHashSet<>()).add(tree);
                        options.computeIfAbsent(declaring.get(), any -> new ArrayList<>()).add(new Taken(command.heading(), option));
                    }
                }
            }
            tree++;
        }
        treesOf.forEach((declaring, in) -> {
            if (in.size() > 1) {
                shared.add(declaring);
            }
        });
    }

    /** A command's section: its description, usage, arguments, own options, and links to the shared groups it takes. */
    String command(Command command, int level, String note) {
        CommandSpec spec = command.spec();
        StringBuilder out = new StringBuilder();
        out.append("#".repeat(level)).append(' ').append(heading(command.heading())).append("\n\n");
        String description = String.join(" ", spec.usageMessage().description()).replace("%n", " ").replace("%%", "%")
                .replaceAll("\\s+", " ").strip();
        if (!description.isEmpty()) {
            out.append(Markdown.prose(description)).append("\n\n");
        }
        if (note != null) {
            out.append(note).append("\n\n");
        }
        out.append("Usage: ").append(Markdown.code(usage(command))).append("\n\n");
        List<PositionalParamSpec> parameters = command.optionsOnly() ? List.of()
                : spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!parameters.isEmpty()) {
            out.append("| argument | description |\n|---|---|\n");
            for (PositionalParamSpec parameter : parameters) {
                out.append("| ").append(Markdown.codeCell(parameter.paramLabel())).append(" | ")
                        .append(Markdown.cell(description(parameter, defaultValue(parameter)))).append(" |\n");
            }
            out.append('\n');
        }
        List<OptionSpec> own = visibleOptions(spec).stream()
                .filter(option -> declaringClass(option).map(c -> !shared.contains(c)).orElse(true)).toList();
        if (!own.isEmpty()) {
            out.append("| option | default | description |\n|---|---|---|\n");
            own.forEach(option -> out.append(row(option, defaultCell(option), defaultValue(option))));
            out.append('\n');
        }
        List<Class<?>> groups = visibleOptions(spec).stream().map(PicocliMarkdown::declaringClass)
                .flatMap(Optional::stream).filter(shared::contains).distinct().collect(Collectors.toList());
        if (!groups.isEmpty()) {
            out.append(own.isEmpty() ? "Options: " : "And the options of ")
                    .append(groups.stream().map(group -> "[" + groupName(group) + "](#" + Markdown.anchor(groupName(group)) + ")")
                            .collect(Collectors.joining(", ")))
                    .append(".\n\n");
        }
        if (own.isEmpty() && groups.isEmpty() && parameters.isEmpty()) {
            out.append("No options but `--help`.\n\n");
        }
        return out.toString();
    }

    /** The shared groups, one section each at {@code level}: which class declares them, who takes them, the options. */
    String groups(int level, Map<String, String> anchorOfHeading) {
        StringBuilder out = new StringBuilder();
        List<Class<?>> ordered = new ArrayList<>(shared);
        ordered.sort(Comparator.comparing(PicocliMarkdown::groupName));
        for (Class<?> group : ordered) {
            out.append("#".repeat(level)).append(' ').append(groupName(group)).append("\n\n");
            out.append("Declared in ").append(Markdown.code(group.getName())).append("; taken by ")
                    .append(takenBy.get(group).stream().map(heading -> "[" + heading(heading) + "](#"
                            + anchorOfHeading.getOrDefault(heading, Markdown.anchor(heading)) + ")")
                            .collect(Collectors.joining(", ")))
                    .append(".\n\n");
            // Each option once, as the commands have it: with its default, or each command's where they differ.
            Map<String, List<Taken>> byName = new LinkedHashMap<>();
            options.get(group).forEach(taken -> byName.computeIfAbsent(taken.option().longestName(), any -> new ArrayList<>()).add(taken));
            out.append("| option | default | description |\n|---|---|---|\n");
            for (List<Taken> takes : byName.values()) {
                Map<String, List<String>> commandsByDefault = new LinkedHashMap<>();
                takes.forEach(taken -> commandsByDefault.computeIfAbsent(defaultCell(taken.option()), any -> new ArrayList<>())
                        .add(taken.command()));
                OptionSpec option = takes.get(0).option();
                if (commandsByDefault.size() == 1) {
                    out.append(row(option, commandsByDefault.keySet().iterator().next(), defaultValue(option)));
                } else {
                    String cell = commandsByDefault.entrySet().stream().map(entry -> entry.getKey() + " ("
                            + entry.getValue().stream().distinct().map(PicocliMarkdown::shortName).collect(Collectors.joining(", ")) + ")")
                            .collect(Collectors.joining("; "));
                    out.append(row(option, cell, Optional.of("the command's")));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** A command's heading: what a user types, as code; a heading of another kind as it is. */
    static String heading(String text) {
        return text.startsWith("bin/volumizer") ? Markdown.code(text) : text;
    }

    private static String shortName(String heading) {
        return heading.startsWith("bin/volumizer ") ? heading.substring("bin/volumizer ".length()) : heading;
    }

    private static String row(OptionSpec option, String defaultCell, Optional<String> defaultValue) {
        String names = String.join(", ", option.names());
        if (option.arity().max() > 0) {
            names += " " + option.paramLabel();
        }
        return "| " + Markdown.codeCell(names) + " | " + defaultCell + " | " + Markdown.cell(description(option, defaultValue)) + " |\n";
    }

    /** The options a user sees: neither hidden, nor the standard help, nor inherited from a parent command. */
    static List<OptionSpec> visibleOptions(CommandSpec spec) {
        return spec.options().stream().filter(option -> !option.hidden() && !option.usageHelp() && !option.versionHelp()
                && !option.inherited()).toList();
    }

    /** The class whose field or method declares the option (a mixin, the command, or a class it extends). */
    static Optional<Class<?>> declaringClass(ArgSpec arg) {
        return arg.userObject() instanceof Member member ? Optional.of(member.getDeclaringClass()) : Optional.empty();
    }

    /** The name a shared group goes by: its class's simple name, with its enclosing class's for a nested one. */
    static String groupName(Class<?> group) {
        return group.getEnclosingClass() == null ? group.getSimpleName()
                : group.getEnclosingClass().getSimpleName() + "." + group.getSimpleName();
    }

    /** The command line a user types: the heading, then [options], the arguments and COMMAND for a parent. */
    static String usage(Command command) {
        StringBuilder usage = new StringBuilder(command.typed());
        CommandSpec spec = command.spec();
        if (!visibleOptions(spec).isEmpty()) {
            usage.append(" [options]");
        }
        if (command.optionsOnly()) {
            return usage.toString();
        }
        for (PositionalParamSpec parameter : spec.positionalParameters()) {
            if (parameter.hidden()) {
                continue;
            }
            boolean optional = parameter.arity().min() == 0;
            boolean repeated = parameter.arity().max() > 1;
            String label = parameter.paramLabel() + (repeated ? "..." : "");
            usage.append(' ').append(optional ? "[" + label + "]" : label);
        }
        if (!spec.subcommands().isEmpty()) {
            usage.append(" COMMAND");
        }
        return usage.toString();
    }

    /**
     * The default as the annotation declares it, or else the field's initial value; none for a flag (its default is
     * being off, or on for a --no- one) or a required option.
     */
    static Optional<String> defaultValue(ArgSpec arg) {
        if (arg.required() || arg instanceof OptionSpec option && option.arity().max() == 0) {
            return Optional.empty();
        }
        String declared = null;
        if (arg.userObject() instanceof AnnotatedElement element) {
            Option option = element.getAnnotation(Option.class);
            Parameters parameters = element.getAnnotation(Parameters.class);
            declared = option != null ? option.defaultValue() : parameters != null ? parameters.defaultValue() : null;
        }
        if (declared != null && !declared.equals(NO_DEFAULT)) {
            return Optional.of(declared);
        }
        Object initial = arg.initialValue();
        if (initial == null || initial instanceof Collection<?> values && values.isEmpty()
                || initial instanceof Map<?, ?> entries && entries.isEmpty()) {
            return Optional.empty();
        }
        if (initial instanceof Collection<?> values) {
            return Optional.of(values.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        if (initial instanceof Map<?, ?> entries) {
            Map<String, String> sorted = new TreeMap<>();
            entries.forEach((key, value) -> sorted.put(String.valueOf(key), String.valueOf(value)));
            return Optional.of(sorted.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                    .collect(Collectors.joining(",")));
        }
        if (initial.getClass().isArray()) {
            String text = Arrays.deepToString(new Object[] {initial});
            return Optional.of(text.substring(2, text.length() - 2));
        }
        return Optional.of(String.valueOf(initial));
    }

    /** A default in a table cell; a value read from the environment or a system property shows where it is read. */
    static String defaultCell(ArgSpec arg) {
        if (arg.required()) {
            return "required";
        }
        return defaultValue(arg).map(declared -> {
            Matcher whole = VARIABLE.matcher(declared);
            if (whole.matches()) {
                return Markdown.codeCell(source(whole)) + (whole.group(3) == null ? "" : ", else " + Markdown.codeCell(whole.group(3)));
            }
            List<String> sources = new ArrayList<>();
            Matcher variable = VARIABLE.matcher(declared);
            StringBuilder resolved = new StringBuilder();
            while (variable.find()) {
                String fallback = variable.group(3) == null ? "" : variable.group(3);
                sources.add(Markdown.codeCell(fallback) + " is " + Markdown.codeCell(source(variable)) + " if set");
                variable.appendReplacement(resolved, Matcher.quoteReplacement(fallback));
            }
            variable.appendTail(resolved);
            String text = resolved.toString();
            return (text.isEmpty() ? "(empty)" : Markdown.codeCell(text)) + (sources.isEmpty() ? "" : " (" + String.join("; ", sources) + ")");
        }).orElse("");
    }

    private static String source(Matcher variable) {
        return variable.group(1).equals("env") ? "$" + variable.group(2) : "-D" + variable.group(2);
    }

    /** A default inside a description: as plain text, a variable as where it is read, else its fallback. */
    private static String defaultText(String declared) {
        Matcher variable = VARIABLE.matcher(declared);
        StringBuilder resolved = new StringBuilder();
        while (variable.find()) {
            String text = source(variable) + (variable.group(3) == null ? "" : ", else " + variable.group(3));
            variable.appendReplacement(resolved, Matcher.quoteReplacement(declared.equals(variable.group()) ? text
                    : variable.group(3) == null ? source(variable) : variable.group(3)));
        }
        variable.appendTail(resolved);
        return resolved.toString();
    }

    /** The description as declared, its ${DEFAULT-VALUE} and ${COMPLETION-CANDIDATES} filled in. */
    static String description(ArgSpec arg, Optional<String> defaultValue) {
        String[] declared = null;
        if (arg.userObject() instanceof AnnotatedElement element) {
            Option option = element.getAnnotation(Option.class);
            Parameters parameters = element.getAnnotation(Parameters.class);
            declared = option != null ? option.description() : parameters != null ? parameters.description() : null;
        }
        String text = String.join(" ", declared != null ? declared : arg.description());
        text = text.replace("%n", " ").replace("%%", "%").replaceAll("\\s+", " ").strip();
        if (text.contains("${DEFAULT-VALUE}")) {
            text = text.replace("${DEFAULT-VALUE}", defaultValue.map(PicocliMarkdown::defaultText).orElse("none"));
        }
        if (text.contains("${COMPLETION-CANDIDATES}")) {
            List<String> candidates = new ArrayList<>();
            if (arg.completionCandidates() != null) {
                arg.completionCandidates().forEach(candidates::add);
            }
            text = text.replace("${COMPLETION-CANDIDATES}", String.join(", ", candidates));
        }
        return text;
    }
}
