package io.volumizer.generators.cli;

import java.io.PrintStream;
import java.util.Locale;

/** A one-line progress bar on stderr: documents, documents/s and ETA, redrawn at most a few times a second. */
final class Progress {

    private static final long REDRAW_NANOS = 250_000_000L;
    private final long total;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private long lastDrawn;

    Progress(long indexSpace, PrintStream out) {
        this.total = indexSpace;
        this.out = out;
    }

    /** Called per index; cheap unless a redraw is due. */
    void at(long index, long documents) {
        if (out == null || (index & 1023) != 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDrawn < REDRAW_NANOS) {
            return;
        }
        lastDrawn = now;
        draw(index, documents, now);
    }

    void finish(long documents) {
        long now = System.nanoTime();
        if (out != null) {
            draw(total, documents, now);
            out.println();
        }
        double seconds = (now - started) / 1e9;
        System.out.printf(Locale.ROOT, "generated %,d documents in %.1f s (%,.0f docs/s)%n", documents, seconds,
                documents / Math.max(seconds, 1e-9));
    }

    private void draw(long index, long documents, long now) {
        double seconds = (now - started) / 1e9;
        double fraction = total == 0 ? 1 : (double) index / total;
        int filled = (int) (fraction * 30);
        long eta = fraction > 0 ? Math.round(seconds / fraction - seconds) : 0;
        out.printf(Locale.ROOT, "\r[%s%s] %5.1f%%  %,d docs  %,.0f docs/s  ETA %d:%02d   ", "#".repeat(filled),
                ".".repeat(30 - filled), fraction * 100, documents, documents / Math.max(seconds, 1e-9), eta / 60, eta % 60);
    }
}
