package io.volumizer.api.commands;

import java.util.ArrayList;
import java.util.List;

import org.bson.Document;

import io.volumizer.api.commands.CommandRefusedException.Reason;
import io.volumizer.options.Options;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.stores.commands.CommandStore;

/**
 * A command's job arguments: the services and topics every job is given (as {@code job submit} takes them), then the
 * command's own, which its record keeps so that it can be resumed, retried and read again.
 */
final class JobArguments {

    /** The record's field holding the command's own arguments. */
    static final String FIELD = "jobArguments";

    private final List<String> pipeline;

    JobArguments(List<String> pipeline) {
        this.pipeline = List.copyOf(pipeline);
    }

    /** The pipeline's arguments, then {@code command}'s. */
    List<String> with(List<String> command) {
        List<String> all = new ArrayList<>(pipeline);
        all.addAll(command);
        return all;
    }

    /** The command's own arguments, as its record keeps them. */
    static List<String> of(Document record) {
        return record.getList(FIELD, String.class);
    }

    /** The options the command's job runs with. */
    Object options(Document record) {
        return step(record).parse(with(of(record)));
    }

    /** The job's options, checked as the job will check them (a 400 naming the option, not a failed job). */
    void check(Step step, List<String> command) {
        try {
            step.parse(with(command));
        } catch (Options.InvalidOptionsException e) {
            throw new CommandRefusedException(Reason.INVALID, null, e.reason());
        }
    }

    /** The step whose job a command runs. */
    static Step step(Document record) {
        return switch (record.getString(CommandStore.ACTION)) {
            case CommandStore.REINDEX -> Step.REINDEX;
            case SetAclOptions.ACTION -> Step.SET_ACL;
            default -> Step.BULK_UPDATE;
        };
    }
}
