package io.volumizer.api.commands;

import java.io.IOException;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.kafka.common.KafkaException;
import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.commands.CommandRefusedException.Reason;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.options.steps.CommandStepOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.ThrottleSetting;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchException;

/**
 * A command's status as the API answers it (see the OpenAPI description) and the CLI prints it: its record as it
 * stands, with its ranges, its throttle and what the search engine holds of its changes. Reading it writes nothing:
 * a {@link CommandReconciler} keeps the records up to date.
 */
final class CommandStatus {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FAILED_RANGES_SHOWN = 10;

    private final FlinkSessionClient flink;
    private final CommandStore commands;
    private final CommandRanges ranges;
    private final SearchEngine search;
    private final IndexNames indices;
    private final Properties kafka;
    private final JobArguments jobArguments;

    CommandStatus(FlinkSessionClient flink, CommandStore commands, CommandRanges ranges, SearchEngine search,
            IndexNames indices, Properties kafka, JobArguments jobArguments) {
        this.flink = flink;
        this.commands = commands;
        this.ranges = ranges;
        this.search = search;
        this.indices = indices;
        this.kafka = kafka;
        this.jobArguments = jobArguments;
    }

    /**
     * The record of {@code commandId}, if {@code readable} accepts it.
     *
     * @throws CommandRefusedException 404 for no such command, or one the caller may not read
     */
    Document find(String commandId, Predicate<Document> readable) {
        if (commandId == null || !commandId.matches(CommandStepOptions.COMMAND_ID_PATTERN)) {
            throw new CommandRefusedException(Reason.NOT_FOUND, null, "no command " + commandId);
        }
        return commands.find(commandId).filter(readable).orElseThrow(() ->
                new CommandRefusedException(Reason.NOT_FOUND, null, "no command " + commandId));
    }

    /** The status of the command {@code record} is the record of. */
    ObjectNode of(Document record) throws IOException {
        String commandId = record.getString(CommandStore.ID);
        State state = CommandStore.stateOf(record);
        boolean reindex = CommandStore.REINDEX.equals(record.getString(CommandStore.ACTION));
        long total = record.get(CommandStore.TOTAL, Number.class).longValue();
        long processed = record.get(CommandStore.PROCESSED, Number.class).longValue();
        ObjectNode status = JSON.createObjectNode().put("commandId", commandId)
                .put("action", record.getString(CommandStore.ACTION))
                .put("repository", record.getString(CommandStore.REPOSITORY)).put("state", state.name());
        ObjectNode rangesNode = JSON.createObjectNode();
        if (reindex) {
            CommandRanges.Counts counts = ranges.counts(commandId);
            if (state != State.COMPLETED) {
                processed = Math.max(processed, counts.documents());
            }
            rangesNode.put("total", counts.total()).put("processed", counts.processed()).put("failed", counts.failed());
            ArrayNode failed = rangesNode.putArray("failedRanges");
            ranges.failed(commandId).stream().limit(FAILED_RANGES_SHOWN).forEach(range -> failed.addObject()
                    .put("index", range.index()).put("from", range.from()).put("to", range.to()).put("reason", range.reason()));
        } else {
            Document slices = record.get("slices", Document.class);
            if (slices != null && state != State.COMPLETED) {
                total = slices.values().stream().mapToLong(size -> ((Number) size).longValue()).sum();
            }
            rangesNode.put("total", 0).put("processed", 0).put("failed", 0);
        }
        status.put("total", total).put("processed", processed)
                .put("skipped", record.get(CommandStore.SKIPPED, Number.class).longValue())
                .put("errors", record.get(CommandStore.ERRORS, Number.class).longValue());
        status.set("ranges", rangesNode);
        Date submitted = record.getDate(CommandStore.SUBMITTED);
        Date started = record.getDate(CommandStore.STARTED);
        Date completed = record.getDate(CommandStore.COMPLETED);
        Date emitted = record.getDate(CommandStore.EMITTED);
        status.put("submitted", instant(submitted)).put("started", instant(started)).put("completed", instant(completed));
        if (emitted != null) {
            status.put("emitted", instant(emitted));
        }
        // A bulk command's rate is its job's: selecting and emitting, not the import's wait.
        Instant end = emitted != null ? emitted.toInstant() : completed != null ? completed.toInstant() : Instant.now();
        double seconds = started == null ? 0 : (end.toEpochMilli() - started.getTime()) / 1000.0;
        status.put("docsPerSecond", seconds > 0 ? Math.round(processed / seconds * 10) / 10.0 : 0.0);
        for (String field : List.of(CommandStore.JOB_ID, CommandStore.INDEX, CommandStore.PREVIOUS_INDEX,
                CommandStore.SAVEPOINT, CommandStore.ERROR, CommandStore.SELECTION_READ, CommandStore.FINISHING)) {
            if (record.get(field) != null) {
                status.put(field, record.get(field).toString());
            }
        }
        if (record.get(CommandStore.ROUNDS) instanceof Number rounds) {
            status.put("rounds", rounds.longValue());
        }
        if (record.get(CommandStore.APPLIED) instanceof Number applied) {
            status.put("applied", applied.longValue());
        }
        indexed(record).ifPresent(indexed -> status.put("indexed", indexed));
        if (state == State.RUNNING) {
            throttle(record).ifPresent(throttle -> status.set("throttle", throttle));
        }
        if (state == State.WAITING_FOR_IMPORT) {
            status.put("message", "every change is in the documents topic, and no import's committed offsets on it "
                    + "have moved for " + ImportProgress.IDLE.toSeconds() + " s: resume the import (bin/volumizer "
                    + "job resume import, or import-and-index); if one runs, it is held up (a checkpoint that takes longer, "
                    + "another producer's open transaction)");
        }
        for (String field : List.of(CommandStore.QUERY, CommandStore.PARAMS)) {
            if (record.get(field) instanceof Document value) {
                status.set(field, JSON.readTree(value.toJson()));
            }
        }
        return status;
    }

    /**
     * A running command's throttle ({@code bin/volumizer throttle <command id | step>}): the settings its job obeys,
     * its own and its step's, and the rate its source achieves (a minute's mean); empty for a command whose step
     * obeys none (a bulk update's changes obey the import's), or when the control topic cannot be read now.
     */
    private Optional<ObjectNode> throttle(Document record) {
        Step step = JobArguments.step(record);
        String jobId = record.getString(CommandStore.JOB_ID);
        if (!step.throttled() || jobId == null) {
            return Optional.empty();
        }
        PipelineStepOptions options = (PipelineStepOptions) jobArguments.options(record);
        PipelineOptions pipeline = options.pipeline;
        try {
            Map<String, ThrottleSetting> settings = new ThrottleSettings(kafka, pipeline.registry.url,
                    pipeline.controlTopic(), pipeline.topicSettings).read();
            ObjectNode throttle = JSON.createObjectNode();
            ArrayNode obeyed = throttle.putArray("obeys");
            for (String target : options.throttleTargets(step)) {
                ThrottleSetting setting = settings.get(target);
                if (setting != null) {
                    obeyed.addObject().put("target", target).put("docsPerSecond", setting.getDocsPerSecond())
                            .put("paused", setting.getPaused());
                }
            }
            throttle.put("achievedDocsPerSecond", flink.metricSum(jobId, "", MetricNames.THROTTLE_ACHIEVED));
            return Optional.of(throttle);
        } catch (ExecutionException | TimeoutException | KafkaException | IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * How many documents the search engine holds in the version a bulk command's job emitted, once it emitted every
     * change: those its command changed in place (setProperties, setAcl), as indexed when last refreshed; nothing
     * for a delete or a route, whose documents leave the repository's index, nor while the engine cannot answer.
     */
    private OptionalLong indexed(Document record) {
        String action = record.getString(CommandStore.ACTION);
        if (record.get(CommandStore.EMITTED_UNTIL) == null
                || !(BulkUpdateOptions.Action.setProperties.name().equals(action) || SetAclOptions.ACTION.equals(action))) {
            return OptionalLong.empty();
        }
        ObjectNode changedByCommand = JSON.createObjectNode();
        changedByCommand.putObject("term").put(DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND,
                record.getString(CommandStore.ID));
        try {
            return OptionalLong.of(search.reader().count(List.of(indices.of(record.getString(CommandStore.REPOSITORY))),
                    changedByCommand));
        } catch (SearchException e) {
            return OptionalLong.empty();
        }
    }

    private static String instant(Date date) {
        return date == null ? null : date.toInstant().toString();
    }
}
