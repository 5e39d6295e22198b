package io.volumizer.loadtest.hostile;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An answer as the benchmark counts it: its status and the error code of its body ({@code 413 payload_too_large}). */
public final class Answers {

    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"([^\"]{1,64})\"");
    /** The code of a 429 that authentication penalties answer (a failed authentication's penalty window). */
    static final String AUTHENTICATION_PENALTY = "too_many_failures";

    private Answers() {
    }

    /** The {@code error} of a JSON error body, or null. */
    public static String error(String body) {
        Matcher matcher = ERROR.matcher(body == null ? "" : body);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** {@code "413 payload_too_large"}, or {@code "200"} without an error code. */
    public static String outcome(int status, String error) {
        return error == null ? Integer.toString(status) : status + " " + error;
    }

    /** Whether an outcome is a refusal by authentication: a 401, or a 429 of a penalty window. */
    public static boolean refusedByAuthentication(String outcome) {
        return outcome.startsWith("401") || outcome.equals("429 " + AUTHENTICATION_PENALTY);
    }
}
