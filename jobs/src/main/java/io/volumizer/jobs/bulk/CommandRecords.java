package io.volumizer.jobs.bulk;

import java.time.Instant;
import java.util.Date;

import org.bson.Document;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.sinks.mongodb.MongoDriverRelease;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.CommandStepOptions;
import io.volumizer.stores.commands.CommandStore;

/** The record of a bulk command, as its job's main method starts it. */
public final class CommandRecords {

    private CommandRecords() {
    }

    /**
     * The command's record, RUNNING (created with {@code request} if the job was submitted without the API); returns
     * the time its changes are stamped with: when it was submitted, so an event made again after a restart is the
     * same event.
     */
    public static Instant begin(CommandStepOptions options, String action, Document request) {
        PipelineOptions pipeline = options.pipeline;
        try (MongoClient mongo = MongoClients.create(pipeline.mongodb.uri)) {
            CommandStore commands = new CommandStore(mongo.getDatabase(pipeline.mongodb.database));
            commands.createIfAbsent(options.commandId, action, options.repository, request);
            Date submitted = commands.find(options.commandId).orElseThrow().getDate(CommandStore.SUBMITTED);
            commands.state(options.commandId, CommandStore.State.RUNNING);
            return submitted.toInstant();
        } finally {
            MongoDriverRelease.stopBufferPoolPruner(); // main() runs in the JobManager, in a class loader of its own
        }
    }
}
