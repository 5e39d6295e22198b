package io.volumizer.jobs.bulk.acl;

import java.time.Instant;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.bson.Document;

import io.volumizer.jobs.bulk.CommandRecords;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.AclJson;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;

/**
 * A setAcl command: a folder's new ACL, then its descendants' effective ACLs recomputed by the running import, in
 * rounds until every one holds what the new ACL gives it ({@link Propagation}). The events go to the documents
 * topic keyed by parent id like every other; at least once, as they are made, since the propagation waits for the
 * import to apply them (a duplicate is the same document at the same version, which the stores keep once).
 */
public record SetAclJob(Source<DocumentEvent, ?, ?> propagation, Sink<DocumentEvent> documents) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        env.fromSource(propagation, WatermarkStrategy.noWatermarks(), "Propagation").uid("set-acl.propagation")
                .setParallelism(1)
                .sinkTo(documents).uid("set-acl.documents-sink").name("Documents to Kafka").setParallelism(1);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.SET_ACL, new SetAclOptions(), args, options -> {
            PipelineOptions pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic());
            String acl = AclJson.write(options.newAcl()).toString();
            Instant commandTime = CommandRecords.begin(options, SetAclOptions.ACTION, new Document(CommandStore.PARAMS,
                    new Document("document", options.document).append("acl", Document.parse(acl))));
            return new SetAclJob(ThrottledSource.of(new PropagationSource(new SetAclSettings(pipeline.repositoryDatabases(),
                    options.repository, options.document, acl, options.commandId, commandTime, Backoff.DEFAULT)),
                    options, Step.SET_ACL, 1, MetricNames.BULK),
                    Connectors.atLeastOnceSink(options, pipeline.documentsTopic(), DocumentEvent.class, DocumentKeys::parentKey));
        });
    }
}
