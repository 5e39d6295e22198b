package io.volumizer.generators.render;

/** Formats cents as {@code -1,234.56}: the hot path of every statement, so no DecimalFormat. */
public final class Money {

    private Money() {
    }

    public static String format(long cents) {
        StringBuilder out = new StringBuilder(16);
        if (cents < 0) {
            out.append('-');
            cents = -cents;
        }
        String units = Long.toString(cents / 100);
        int firstGroup = units.length() % 3 == 0 ? 3 : units.length() % 3;
        out.append(units, 0, firstGroup);
        for (int i = firstGroup; i < units.length(); i += 3) {
            out.append(',').append(units, i, i + 3);
        }
        long fraction = cents % 100;
        return out.append('.').append(fraction < 10 ? "0" : "").append(fraction).toString();
    }
}
