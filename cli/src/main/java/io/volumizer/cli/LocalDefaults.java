package io.volumizer.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The defaults of the commands' options on the local services that are not the endpoint options' own
 * ({@code ${sys:volumizer.kafka.bootstrap}}...): the demo's repository and checkpoint interval, the jobs jar, the
 * API's ports. {@code defaults.properties} holds them by {@code <command>.<option>} ({@code *.<option>}: any command
 * with that option), the command being the subcommand of {@code volumizer}; {@code ${name}} in a value is a system
 * property (of the endpoints file, or {@code volumizer.root} and {@code volumizer.state}), and a value naming one
 * that is not set is no default.
 */
final class LocalDefaults implements IDefaultValueProvider {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");
    private final Properties table;

    private LocalDefaults(Properties table) {
        this.table = table;
    }

    static LocalDefaults load() {
        Properties table = new Properties();
        try (InputStream in = LocalDefaults.class.getResourceAsStream("defaults.properties")) {
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new LocalDefaults(table);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        CommandSpec command = arg.command();
        while (command.parent() != null && !command.parent().name().equals(Volumizer.NAME)) {
            command = command.parent();
        }
        for (String name : option.names()) { // an option's current name and its old ones
            String bare = name.replaceFirst("^-+", "");
            String value = table.getProperty(command.name() + "." + bare, table.getProperty("*." + bare));
            if (value != null) {
                return resolved(value);
            }
        }
        return null;
    }

    private static String resolved(String value) {
        Matcher property = PROPERTY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (property.find()) {
            String set = System.getProperty(property.group(1));
            if (set == null) {
                return null;
            }
            property.appendReplacement(out, Matcher.quoteReplacement(set));
        }
        return property.appendTail(out).toString();
    }
}
