package io.volumizer.campaigns.file;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A repository size a campaign grows to: its label as the file writes it ({@code 1M}, {@code 2000}, {@code 2.5k})
 * and the documents it stands for.
 */
public record Size(String label, long documents) {

    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([kKMG]?)");

    /** {@code 2000}, {@code 5k}, {@code 1M}, {@code 2.5M}, {@code 1G}; null if {@code text} is none of these. */
    static Size parse(String text) {
        Matcher size = FORM.matcher(text.replace("_", ""));
        if (!size.matches()) {
            return null;
        }
        long unit = switch (size.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            default -> 1L;
        };
        double documents = Double.parseDouble(size.group(1)) * unit;
        return documents >= 1 && documents == Math.rint(documents) ? new Size(text, (long) documents) : null;
    }
}
