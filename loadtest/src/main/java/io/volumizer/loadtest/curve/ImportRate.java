package io.volumizer.loadtest.curve;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** One pass of the import curve: the import paused (0), at a fixed limit, without a limit (max), or holding a p95. */
public sealed interface ImportRate {

    /** How the pass is named in its files and the table: {@code 250}, {@code max}, {@code hold}. */
    String label();

    /** Whether the import reads during the pass: all but a paused one. */
    default boolean reads() {
        return !(this instanceof Fixed fixed && fixed.docsPerSecond() == 0);
    }

    /** At most this many docs/s; 0: paused, the users alone. */
    record Fixed(double docsPerSecond) implements ImportRate {
        public Fixed {
            if (!(docsPerSecond >= 0) || Double.isInfinite(docsPerSecond)) {
                throw new IllegalArgumentException("an import rate is 0 or more docs/s, max or hold; was " + docsPerSecond);
            }
        }

        @Override
        public String label() {
            return docsPerSecond == Math.rint(docsPerSecond) ? Long.toString((long) docsPerSecond)
                    : String.format(Locale.ROOT, "%.1f", docsPerSecond);
        }
    }

    /** As fast as the import goes. */
    record Max() implements ImportRate {
        @Override
        public String label() {
            return "max";
        }
    }

    /** The hold controller sets the limit. */
    record Hold() implements ImportRate {
        @Override
        public String label() {
            return "hold";
        }
    }

    /** {@code 0,100,250,max,hold}. */
    public static List<ImportRate> parse(String rates) {
        return Arrays.stream(rates.split(",")).map(String::trim).map(rate -> switch (rate) {
            case "max" -> (ImportRate) new Max();
            case "hold" -> new Hold();
            default -> {
                try {
                    yield new Fixed(Double.parseDouble(rate));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("an import rate is a number of docs/s, max or hold; was '" + rate + "'");
                }
            }
        }).toList();
    }
}
