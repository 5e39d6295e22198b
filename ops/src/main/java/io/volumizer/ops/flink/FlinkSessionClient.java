package io.volumizer.ops.flink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.options.steps.RunArguments;
import io.volumizer.options.steps.Step;

/**
 * Submits and operates jobs on a Flink session cluster through its REST API: the same calls the Web UI makes
 * (upload a jar, run it, stop with a savepoint, resume from one), so whatever the CLI does, a user can do by hand.
 */
public final class FlinkSessionClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED");
    /** Flink's refusal of a savepoint whose key groups are not the new job's: the savepoint's max parallelism. */
    private static final java.util.regex.Pattern SAVED_MAX_PARALLELISM =
            java.util.regex.Pattern.compile("with max parallelism (\\d+) to new program");
    /** Seconds a metric's first values may take: the JobManager fetches them from the TaskManagers on request. */
    private static final int METRIC_FETCH_RETRIES = 5;
    /** Flink's answer to a savepoint triggered while a task of the job does not run (deploying, restarting). */
    private static final String TASKS_NOT_RUNNING = "Not all required tasks are currently running";

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param baseUrl e.g. {@code http://127.0.0.1:8081} */
    public FlinkSessionClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    /**
     * Uploads a job jar (POST /jars/upload) and returns its id on the cluster, or the id of the same bytes uploaded
     * before (GET /jars). The upload is named after the jar's content digest: the cluster keeps every upload, so one
     * per submitted step filled its upload folder (2.4 GB of identical 42 MB jars here), while the Web UI lists one
     * upload per build this way.
     */
    public String uploadJar(Path jar) throws IOException {
        byte[] content = Files.readAllBytes(jar);
        String name = uploadName(jar.getFileName().toString(), content);
        for (JsonNode uploaded : send(request("/jars").GET(), "list uploaded jars").path("files")) {
            if (name.equals(uploaded.path("name").asText())) {
                return uploaded.path("id").asText();
            }
        }
        String boundary = "volumizer-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                + name + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.write(content);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        JsonNode answer = send(request("/jars/upload")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())), "upload " + jar);
        String filename = answer.path("filename").asText();
        return filename.substring(filename.lastIndexOf('/') + 1);
    }

    /** {@code volumizer-jobs-0.1.0.jar} → {@code volumizer-jobs-0.1.0-<first 12 hex digits of its SHA-256>.jar}. */
    static String uploadName(String filename, byte[] content) {
        String base = filename.endsWith(".jar") ? filename.substring(0, filename.length() - 4) : filename;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return base + "-" + HexFormat.of().formatHex(digest, 0, 6) + ".jar";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Runs an uploaded jar's entry class (POST /jars/{id}/run), optionally from a savepoint; returns the job id. */
    public String run(String jarId, String entryClass, List<String> programArgs, String savepointPath)
            throws IOException {
        ObjectNode body = JSON.createObjectNode().put("entryClass", entryClass);
        programArgs.forEach(body.putArray("programArgsList")::add);
        if (savepointPath != null) {
            body.put("savepointPath", savepointPath).put("allowNonRestoredState", false);
        }
        try {
            return send(request("/jars/" + jarId + "/run").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())), "run " + entryClass).path("jobid").asText();
        } catch (IOException refused) {
            throw savepointRefusal(refused);
        }
    }

    /** Flink's refusal of a run, and what to do when a savepoint was taken at another max parallelism. */
    static IOException savepointRefusal(IOException refused) {
        java.util.regex.Matcher saved = SAVED_MAX_PARALLELISM.matcher(String.valueOf(refused.getMessage()));
        return saved.find() ? new IOException(refused.getMessage() + " The savepoint's max parallelism is "
                + saved.group(1) + ": resume it with --max-parallelism " + saved.group(1) + ".", refused) : refused;
    }

    /**
     * Runs a step of the uploaded jobs jar (POST /jars/{id}/run) with {@code args}, parsed and checked with the
     * step's options class first (a later option replaces an earlier one); returns the job id.
     */
    public String run(String jarId, Step step, List<String> args, String savepointPath) throws IOException {
        return run(jarId, step.mainClass(), step.arguments(args), savepointPath);
    }

    /** Every job the cluster knows, newest first (GET /jobs/overview). */
    public List<JsonNode> jobs() throws IOException {
        List<JsonNode> jobs = new java.util.ArrayList<>();
        send(request("/jobs/overview").GET(), "list jobs").path("jobs").forEach(jobs::add);
        jobs.sort((a, b) -> Long.compare(b.path("start-time").asLong(), a.path("start-time").asLong()));
        return jobs;
    }

    /** A value of the JobManager's configuration (GET /jobmanager/config), if set. */
    public Optional<String> clusterSetting(String key) throws IOException {
        for (JsonNode setting : send(request("/jobmanager/config").GET(), "read the cluster's configuration")) {
            if (key.equals(setting.path("key").asText())) {
                return Optional.of(setting.path("value").asText());
            }
        }
        return Optional.empty();
    }

    /** Task slots no job holds (GET /overview). */
    public int freeSlots() throws IOException {
        return send(request("/overview").GET(), "read the cluster overview").path("slots-available").asInt();
    }

    /** Whether a job in this state has ended: it neither runs nor will run again. */
    public static boolean isTerminal(String state) {
        return TERMINAL.contains(state);
    }

    /** The job's state: CREATED, RUNNING, FINISHED, FAILED, CANCELED... */
    public String state(String jobId) throws IOException {
        return job(jobId).path("state").asText();
    }

    /** The job's details (GET /jobs/{id}): state, vertices with their metrics. */
    public JsonNode job(String jobId) throws IOException {
        return send(request("/jobs/" + jobId).GET(), "read job " + jobId);
    }

    /** The TaskManagers the job's subtasks run on (GET /jobs/{id}/vertices/{vertex}/taskmanagers), by id. */
    public java.util.Set<String> taskManagers(String jobId) throws IOException {
        java.util.Set<String> taskManagers = new java.util.TreeSet<>();
        for (JsonNode vertex : job(jobId).path("vertices")) {
            String path = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/taskmanagers";
            send(request(path).GET(), "read where job " + jobId + " runs").path("taskmanagers")
                    .forEach(taskManager -> taskManagers.add(taskManager.path("taskmanager-id").asText()));
        }
        return taskManagers;
    }

    /** The job's checkpoint statistics (GET /jobs/{id}/checkpoints): its latest savepoint among them. */
    public JsonNode checkpoints(String jobId) throws IOException {
        return send(request("/jobs/" + jobId + "/checkpoints").GET(), "read the checkpoints of job " + jobId);
    }

    /** The job's configuration (GET /jobs/{id}/config): its job parameters among them. */
    public JsonNode config(String jobId) throws IOException {
        return send(request("/jobs/" + jobId + "/config").GET(), "read the configuration of job " + jobId);
    }

    /**
     * The arguments a job was submitted with, as its job parameters recorded them ({@link RunArguments}), from its
     * {@link #config}; empty for a job submitted otherwise.
     */
    public static Optional<List<String>> runArguments(JsonNode config) {
        Map<String, String> parameters = new HashMap<>();
        config.path("execution-config").path("user-config").fields()
                .forEachRemaining(entry -> parameters.put(entry.getKey(), entry.getValue().asText()));
        return RunArguments.from(parameters);
    }

    /**
     * Waits until a job started from a savepoint has restored it into every task. A restore that fails does not end
     * the job: it restarts, and fails again, without end. So at its first restart the job is cancelled, and this
     * throws with the innermost cause.
     *
     * @return whether every task runs; {@code false} if some still restore at the deadline (large state)
     */
    public boolean awaitRestored(String jobId, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Boolean restored = JobDetails.restored(job(jobId));
            if (Boolean.TRUE.equals(restored)) {
                return true;
            }
            if (Boolean.FALSE.equals(restored)) {
                String cause = innermostCause(exceptions(jobId));
                if (!isTerminal(state(jobId))) {
                    cancel(jobId, Duration.ofMinutes(1));
                }
                throw new IllegalStateException("job " + jobId + " could not restore its savepoint, and was cancelled: "
                        + cause);
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(500);
        }
    }

    /** Waits until the job reaches {@code wanted}; fails fast if it ends in another terminal state. */
    public void awaitState(String jobId, String wanted, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = state(jobId);
        while (!state.equals(wanted)) {
            if (TERMINAL.contains(state)) {
                throw new IllegalStateException("job " + jobId + " ended " + state + " while waiting for " + wanted
                        + ": " + exceptions(jobId));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("job " + jobId + " still " + state + " after " + timeout);
            }
            Thread.sleep(200);
            state = state(jobId);
        }
    }

    /**
     * Stops the job with a savepoint (POST /jobs/{id}/stop) and returns the savepoint's path once written. A job
     * just submitted, or restarting, cannot take one until every task runs: the stop waits for that, and triggers
     * again if a task stopped running between the check and the trigger.
     */
    public String stopWithSavepoint(String jobId, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            awaitEveryTaskRunning(jobId, timeout, deadline);
            ObjectNode body = JSON.createObjectNode().put("drain", false);
            String trigger = send(request("/jobs/" + jobId + "/stop").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())), "stop " + jobId)
                    .path("request-id").asText();
            JsonNode operation = savepointOperation(jobId, trigger, timeout, deadline);
            if (!operation.has("failure-cause")) {
                return operation.path("location").asText();
            }
            String cause = operation.path("failure-cause").path("stack-trace").asText();
            if (!cause.contains(TASKS_NOT_RUNNING) || System.nanoTime() > deadline) {
                throw new IllegalStateException("savepoint of " + jobId + " failed: " + cause);
            }
        }
    }

    private JsonNode savepointOperation(String jobId, String trigger, Duration timeout, long deadline)
            throws IOException, InterruptedException {
        while (System.nanoTime() < deadline) {
            JsonNode status = send(request("/jobs/" + jobId + "/savepoints/" + trigger).GET(), "poll savepoint");
            if ("COMPLETED".equals(status.path("status").path("id").asText())) {
                return status.path("operation");
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("savepoint of " + jobId + " not done after " + timeout);
    }

    private void awaitEveryTaskRunning(String jobId, Duration timeout, long deadline)
            throws IOException, InterruptedException {
        JsonNode job = job(jobId);
        while (!JobDetails.everyTaskRunning(job)) {
            String state = job.path("state").asText();
            if (isTerminal(state)) {
                throw new IllegalStateException("job " + jobId + " ended " + state + " before its savepoint: "
                        + innermostCause(exceptions(jobId)));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("job " + jobId + " has tasks not running after " + timeout
                        + ", so no savepoint: " + innermostCause(exceptions(jobId)));
            }
            Thread.sleep(200);
            job = job(jobId);
        }
    }

    /**
     * The records the job's sources have sent on (GET /jobs/{id}: each source vertex's write-records, refreshed by
     * the JobManager every few seconds): a job reading records whose effects the stores already hold moves this
     * and not the stores' counts.
     */
    public long recordsSentBySources(String jobId) throws IOException {
        return JobDetails.recordsSentBySources(job(jobId));
    }

    /**
     * The sum over all subtasks of every operator metric of the job whose id ends with {@code .<metric>} and
     * contains {@code operatorPart} (e.g. "MongoDB", "written"), or 0 before the job reports any.
     */
    public long metricSum(String jobId, String operatorPart, String metric) throws IOException {
        return Math.round(metricOverSubtasks(jobId, operatorPart, metric, "sum", Double::sum));
    }

    /** The largest value over all subtasks of such a metric (a gauge each subtask reports whole), or 0. */
    public double metricMax(String jobId, String operatorPart, String metric) throws IOException {
        return metricOverSubtasks(jobId, operatorPart, metric, "max", Math::max);
    }

    private double metricOverSubtasks(String jobId, String operatorPart, String metric, String aggregate,
            java.util.function.DoubleBinaryOperator combine) throws IOException {
        double result = 0;
        for (JsonNode vertex : job(jobId).path("vertices")) {
            String base = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/subtasks/metrics";
            List<String> ids = new java.util.ArrayList<>();
            for (JsonNode available : send(request(base).GET(), "list metrics")) {
                String id = available.path("id").asText();
                if (id.endsWith("." + metric) && id.contains(operatorPart)) {
                    ids.add(id);
                }
            }
            if (!ids.isEmpty()) {
                String query = java.net.URLEncoder.encode(String.join(",", ids), java.nio.charset.StandardCharsets.UTF_8);
                JsonNode values = send(request(base + "?agg=" + aggregate + "&get=" + query).GET(), "read metrics");
                // The REST endpoint lists a metric before its first values are fetched, and answers none meanwhile.
                for (int retries = 0; values.isEmpty() && retries < METRIC_FETCH_RETRIES; retries++) {
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while reading metrics of " + jobId, e);
                    }
                    values = send(request(base + "?agg=" + aggregate + "&get=" + query).GET(), "read metrics");
                }
                for (JsonNode value : values) {
                    result = combine.applyAsDouble(result, value.path(aggregate).asDouble());
                }
            }
        }
        return result;
    }

    /**
     * Cancels the job (PATCH /jobs/{id}?mode=cancel) and waits until it is gone: a job still cancelling may write
     * into stores its caller is about to drop.
     */
    public void cancel(String jobId, Duration timeout) throws IOException, InterruptedException {
        send(request("/jobs/" + jobId + "?mode=cancel").method("PATCH", HttpRequest.BodyPublishers.noBody()),
                "cancel " + jobId);
        awaitState(jobId, "CANCELED", timeout);
    }

    /**
     * How many times the job has restarted after a failure (its {@code numRestarts} metric). The cluster serves job
     * metrics from a cache it refreshes on request, so a value may lag by its fetch interval.
     */
    public long restarts(String jobId) throws IOException {
        for (JsonNode metric : send(request("/jobs/" + jobId + "/metrics?get=numRestarts").GET(), "read restarts of " + jobId)) {
            return metric.path("value").asLong();
        }
        return 0;
    }

    /** The root exception the cluster recorded for the job, or an empty string. */
    public String exceptions(String jobId) throws IOException {
        return rootException(send(request("/jobs/" + jobId + "/exceptions").GET(), "read exceptions of " + jobId));
    }

    /**
     * The newest root exception of a job's exceptions answer, its stack trace: the first entry of its
     * {@code exceptionHistory} (Flink 2.x serves nothing else), else the {@code root-exception} Flink 1.x also served.
     */
    static String rootException(JsonNode exceptions) {
        JsonNode newest = exceptions.path("exceptionHistory").path("entries").path(0);
        return newest.isMissingNode() ? exceptions.path("root-exception").asText("") : newest.path("stacktrace").asText("");
    }

    /** The innermost "Caused by" of a REST error's stack trace: what a person needs to read first. */
    static String rootCause(String body) {
        String cause = body;
        try {
            JsonNode errors = JSON.readTree(body).path("errors");
            if (errors.isArray() && !errors.isEmpty()) {
                cause = errors.get(0).asText();
            }
        } catch (IOException e) {
            return body;
        }
        return innermostCause(cause);
    }

    /** The last "Caused by" line of a stack trace, else its first line. */
    static String innermostCause(String stackTrace) {
        String[] lines = stackTrace.split("\n");
        String innermost = lines[0];
        for (String line : lines) {
            if (line.startsWith("Caused by: ")) {
                innermost = line.substring("Caused by: ".length());
            }
        }
        return innermost;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60));
    }

    private JsonNode send(HttpRequest.Builder request, String what) throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while trying to " + what, e);
        } catch (IOException e) {
            throw new IOException("Flink REST API at " + baseUrl + " unreachable: could not " + what, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("Flink could not " + what + ": HTTP " + response.statusCode() + " "
                    + rootCause(response.body()));
        }
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }
}
