package io.volumizer.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A Markdown table of rows, its columns declared once: a header, a cell, and whether it is a number (right-aligned).
 * The runners' figures stay records that Jackson writes as JSON; this renders the same records as their Markdown.
 *
 * @param <R> a row
 */
public final class Table<R> {

    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> rightAligned = new ArrayList<>();
    private final List<Function<? super R, ?>> cells = new ArrayList<>();

    /** A column of text, left-aligned; a null cell is left empty. */
    public Table<R> text(String header, Function<? super R, ?> cell) {
        return column(header, false, cell);
    }

    /** A column of numbers in {@code format} ({@code %.1f}, {@code %,d}), right-aligned; a null cell is left empty. */
    public Table<R> number(String header, String format, Function<? super R, ? extends Number> cell) {
        return column(header, true, row -> {
            Number value = cell.apply(row);
            return value == null ? null : String.format(Locale.ROOT, format, value);
        });
    }

    private Table<R> column(String header, boolean right, Function<? super R, ?> cell) {
        headers.add(header);
        rightAligned.add(right);
        cells.add(cell);
        return this;
    }

    /** The header, its alignment row and a line a row, each line ending with a newline. */
    public String render(Iterable<? extends R> rows) {
        StringBuilder text = new StringBuilder("| ").append(String.join(" | ", headers)).append(" |\n|");
        rightAligned.forEach(right -> text.append(right ? "---:|" : "---|"));
        text.append('\n');
        for (R row : rows) {
            text.append('|');
            for (Function<? super R, ?> cell : cells) {
                Object value = cell.apply(row);
                text.append(' ').append(value == null ? "" : escape(value.toString())).append(" |");
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** A pipe inside a cell would end it. */
    private static String escape(String cell) {
        return cell.replace("|", "\\|").replace("\n", " ");
    }
}
