package io.volumizer.generators;

import java.time.YearMonth;

/**
 * The key of a generated blob: everything needed to render it again, so blobs can be regenerated on demand
 * ("just-in-time") instead of stored. Format:
 * {@code gen/v1/<seed>/<statements per account>/<last period>/<mean accounts>/<kind>/<customer>[/<account>[/<statement>]]}.
 */
public record BlobKey(GeneratorSettings settings, Kind kind, long customer, int account, int statement) {

    private static final String PREFIX = "gen/v1/";

    /** What a blob is; each kind has its renderer. */
    public enum Kind {
        IDCARD("image/jpeg", "jpg"),
        LETTER("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"),
        STATEMENT("application/pdf", "pdf");

        public final String mimeType;
        public final String extension;

        Kind(String mimeType, String extension) {
            this.mimeType = mimeType;
            this.extension = extension;
        }
    }

    public String format() {
        StringBuilder key = new StringBuilder(64).append(PREFIX).append(settings.seed()).append('/')
                .append(settings.statementsPerAccount()).append('/').append(settings.lastPeriod()).append('/')
                .append(settings.meanAccountsPerCustomer()).append('/').append(kind.name().toLowerCase())
                .append('/').append(customer);
        if (kind != Kind.IDCARD) {
            key.append('/').append(account);
        }
        if (kind == Kind.STATEMENT) {
            key.append('/').append(statement);
        }
        return key.toString();
    }

    /** Whether a blob key is a generated blob's (which {@link #parse} reads and renders again). */
    public static boolean isGenerated(String key) {
        return key != null && key.startsWith(PREFIX);
    }

    /** @throws IllegalArgumentException naming what is wrong with the key */
    public static BlobKey parse(String key, String repository) {
        if (key == null || !key.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a generated blob key (expected " + PREFIX + "...): " + key);
        }
        String[] parts = key.substring(PREFIX.length()).split("/");
        try {
            Kind kind = Kind.valueOf(parts[4].toUpperCase());
            int expected = kind == Kind.IDCARD ? 6 : kind == Kind.LETTER ? 7 : 8;
            if (parts.length != expected) {
                throw new IllegalArgumentException("a " + parts[4] + " key has " + expected + " parts after " + PREFIX);
            }
            GeneratorSettings settings = new GeneratorSettings(Long.parseLong(parts[0]), 0, Integer.parseInt(parts[1]),
                    Double.parseDouble(parts[3]), YearMonth.parse(parts[2]), repository);
            return new BlobKey(settings, kind, Long.parseLong(parts[5]),
                    kind == Kind.IDCARD ? 0 : Integer.parseInt(parts[6]),
                    kind == Kind.STATEMENT ? Integer.parseInt(parts[7]) : 0);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed blob key '" + key + "': " + e.getMessage(), e);
        }
    }
}
