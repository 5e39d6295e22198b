package io.volumizer.jobs.submit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/volumizer demo}: uploads the jobs jar to the local session cluster, runs the smoke job with a live
 * progress line, and ends with a summary of records and records/s.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Runs the demo job on the Flink session cluster.")
public final class Demo implements Callable<Integer> {

    /** By name: this client runs without Flink on its classpath. */
    private static final String SMOKE_JOB = "io.volumizer.jobs.smoke.SmokeJob";

    @Option(names = "--flink-rest", defaultValue = "http://127.0.0.1:8081", description = "Flink REST endpoint.")
    String flinkRest;

    @Option(names = "--jar", required = true, description = "The jobs jar to upload.")
    Path jar;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka brokers.")
    String bootstrapServers;

    @Option(names = "--records", defaultValue = "2000000", description = "Records the job generates (default: ${DEFAULT-VALUE}).")
    long records;

    @Override
    public Integer call() throws Exception {
        FlinkSessionClient flink = new FlinkSessionClient(flinkRest);
        String jarId = flink.uploadJar(jar);
        String jobId = flink.run(jarId, SMOKE_JOB, List.of("--bootstrap-servers", bootstrapServers,
                "--records", Long.toString(records), "--topic", "volumizer-demo-smoke"), null);
        System.out.printf("submitted job %s — watch it at %s/#/job/running/%s/overview%n", jobId, flinkRest, jobId);
        long started = System.nanoTime();
        String state;
        long counted;
        do {
            Thread.sleep(1000);
            JsonNode job = flink.job(jobId);
            state = job.path("state").asText();
            counted = sinkRecordsIn(job);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(Locale.ROOT, "\r%-9s %,d / %,d records counted  %,.0f records/s   ", state, counted,
                    records, counted / seconds);
        } while (!state.equals("FINISHED") && !state.equals("FAILED") && !state.equals("CANCELED"));
        System.out.println();
        if (!state.equals("FINISHED")) {
            System.err.println("job " + state + ": " + flink.exceptions(jobId));
            return 1;
        }
        JsonNode job = flink.job(jobId);
        double seconds = Duration.ofMillis(job.path("duration").asLong()).toMillis() / 1e3;
        long total = sinkRecordsIn(job);
        System.out.printf(Locale.ROOT, "summary: %,d records generated, counted in keyed state and written to Kafka "
                + "in %.1f s = %,.0f records/s (%s)%n", total, seconds, total / seconds,
                total == records ? "reconciled" : "MISMATCH: expected " + records);
        return total == records ? 0 : 1;
    }

    /** Records received by the job's last vertex (the sink). */
    private static long sinkRecordsIn(JsonNode job) {
        JsonNode vertices = job.path("vertices");
        return vertices.isEmpty() ? 0 : vertices.get(vertices.size() - 1).path("metrics").path("read-records").asLong();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Demo()).execute(args));
    }
}
