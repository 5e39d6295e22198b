package io.volumizer.options.steps;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The arguments a run of a step was submitted with, kept in the job's own configuration (its global job parameters,
 * which the Web UI shows and REST and the JobManager's archive of finished jobs keep), so that a stopped step can be
 * resumed by name with the options it ran with. The arguments hold no secret: a secret is never an option.
 */
public final class RunArguments {

    /** The job parameter holding the arguments, as a JSON array of strings. */
    public static final String PARAMETER = "volumizer.arguments";

    private static final ObjectMapper JSON = new ObjectMapper();

    private RunArguments() {
    }

    /** The job parameters that record {@code arguments}. */
    public static Map<String, String> parameters(List<String> arguments) {
        try {
            return Map.of(PARAMETER, JSON.writeValueAsString(arguments));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the arguments as JSON", e);
        }
    }

    /** The arguments recorded in a job's parameters; empty if they record none (a job submitted otherwise). */
    public static Optional<List<String>> from(Map<String, String> parameters) {
        String recorded = parameters.get(PARAMETER);
        if (recorded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(recorded, new TypeReference<List<String>>() { }));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the job parameter " + PARAMETER + " is not a JSON array of strings: "
                    + recorded, e);
        }
    }
}
