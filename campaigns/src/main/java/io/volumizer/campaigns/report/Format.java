package io.volumizer.campaigns.report;

import java.util.Locale;

/** Numbers as the page prints them: thousands separators, and as many decimals as a figure of its size deserves. */
final class Format {

    private Format() {
    }

    static String number(Number figure) {
        if (figure == null || Double.isNaN(figure.doubleValue())) {
            return "–";
        }
        double value = figure.doubleValue();
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100 || value == Math.rint(value) ? "%,.0f" : magnitude >= 10 ? "%,.1f" : magnitude >= 1 ? "%,.2f" : "%,.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    /** B/A, or a dash when either is missing. */
    static String ratio(Double a, Double b) {
        return a == null || b == null || a == 0 ? "–" : "×" + String.format(Locale.ROOT, "%.2f", b / a);
    }
}
