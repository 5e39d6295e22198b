package io.volumizer.api.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/** A command's status polled as a user polls it, until it shows what a test waits for. */
final class CommandAwait {

    private final Commands commands;
    private final Duration timeout;

    CommandAwait(Commands commands, Duration timeout) {
        this.commands = commands;
        this.timeout = timeout;
    }

    /** Until the command has ended, or waits for an import to apply its changes. */
    JsonNode end(String commandId) throws Exception {
        return status(commandId, s -> !List.of("SCHEDULED", "RUNNING", "APPLYING").contains(s.path("state").asText()),
                "the end");
    }

    /** Until the command's status shows {@code what}, reconciled on a schedule meanwhile as a user's API or CLI does. */
    JsonNode status(String commandId, Predicate<JsonNode> reached, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(commandId)) {
            JsonNode status = commands.status(commandId);
            while (!reached.test(status)) {
                assertThat(System.nanoTime()).as("command " + commandId + " waiting for " + what + ": " + status)
                        .isLessThan(deadline);
                Thread.sleep(250);
                status = commands.status(commandId);
            }
            return status;
        }
    }
}
