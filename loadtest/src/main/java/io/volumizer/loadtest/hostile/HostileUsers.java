package io.volumizer.loadtest.hostile;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Hostile users, all from 127.0.0.1 like the honest ones, each kind at a modest rate in its own threads, for one pass:
 * bodies meant to exhaust memory or CPU before any permission check (sent by a customer who may read its folder and
 * write nothing, so that no body could create anything), slow bodies, bad and missing tokens, expensive prefix
 * searches, and recursive deletes of big folders. Every request's answer is counted by kind and status.
 */
public final class HostileUsers {

    /** What a hostile user sends, and how often (one thread per kind, {@link #slowBodies} for slow bodies). */
    public enum Kind {
        CHUNKED_BODY("chunked JSON create, 100 MB generated as sent", Duration.ofSeconds(2)),
        ARRAY_BODY("JSON create of 20 MB `[{},{},…]` with its Content-Length", Duration.ofSeconds(1)),
        MANY_PARTS("multipart create of 999 parts (150 KB)", Duration.ofMillis(500)),
        SLOW_BODY("slow create body, 5 bytes a second", Duration.ZERO),
        NO_TOKEN("request without a token", Duration.ofMillis(200)),
        BAD_TOKEN("bad bearer token (garbage, forged signature, another audience, expired)", Duration.ofMillis(200)),
        SHORT_PREFIX("search q=a*", Duration.ofMillis(500)),
        MANY_PREFIXES("search of 20 prefixes", Duration.ofMillis(500)),
        DELETE_WITHOUT_MANAGE("recursive delete of a state folder by its staff (Write, not Manage)", Duration.ofSeconds(2)),
        DELETE_OVER_CAP("recursive delete of the root by an administrator, over the cap", Duration.ofSeconds(4));

        public final String description;
        public final Duration interval;

        Kind(String description, Duration interval) {
            this.description = description;
            this.interval = interval;
        }
    }

    /** The sizes and rates of the attacks. */
    static final long CHUNKED_BYTES = 100L * 1024 * 1024;
    static final long ARRAY_BYTES = 20L * 1024 * 1024;
    static final int PARTS = 999;
    static final long SLOW_BYTES_PER_SECOND = 5;

    /**
     * What the hostile users act on and as whom: a null folder leaves its kind out; without an expired token (one
     * still within the API's clock skew), the token of another audience is sent in its turn.
     */
    public record Targets(String repository, String customerToken, String customerFolder, String forgedToken,
            String otherAudienceToken, String expiredToken, String staffToken, String stateFolder,
            String administratorToken, String bigFolder) {
    }

    /**
     * A kind's answers: by outcome, how long each took, and for a body sent on its own connection how much the client
     * had sent when the answer came and how much the API read on that connection.
     */
    public static final class Tally {
        public final Map<String, Long> byOutcome = new TreeMap<>();
        private long[] micros = new long[64];
        private int count;
        private final List<Integer> clientPorts = new ArrayList<>();
        private long[] serverBytes = new long[0];
        public long maxBytesSentBeforeAnswer = -1;

        synchronized void add(String outcome, long micros, long bytesSentBeforeAnswer, int clientPort) {
            byOutcome.merge(outcome, 1L, Long::sum);
            if (count == this.micros.length) {
                this.micros = Arrays.copyOf(this.micros, count * 2);
            }
            this.micros[count++] = micros;
            maxBytesSentBeforeAnswer = Math.max(maxBytesSentBeforeAnswer, bytesSentBeforeAnswer);
            if (clientPort > 0) {
                clientPorts.add(clientPort);
            }
        }

        /** Looks up what the API read on each of this kind's connections (once they are closed). */
        public synchronized void readBy(ServerReads reads) {
            long[] found = clientPorts.stream().mapToLong(reads::take).filter(bytes -> bytes >= 0).toArray();
            clientPorts.clear();
            serverBytes = concat(serverBytes, found);
        }

        /** What the API read on each of this kind's connections, in bytes, smallest first. */
        public synchronized long[] serverReads() {
            long[] sorted = serverBytes.clone();
            Arrays.sort(sorted);
            return sorted;
        }

        public synchronized Latencies latencies() {
            return new Latencies(Arrays.copyOf(micros, count), 0);
        }

        public synchronized void addAll(Tally other) {
            other.byOutcome.forEach((outcome, n) -> byOutcome.merge(outcome, n, Long::sum));
            long[] joined = concat(Arrays.copyOf(micros, count), Arrays.copyOf(other.micros, other.count));
            micros = joined.length == 0 ? new long[64] : joined;
            count = joined.length;
            serverBytes = concat(serverBytes, other.serverBytes);
            maxBytesSentBeforeAnswer = Math.max(maxBytesSentBeforeAnswer, other.maxBytesSentBeforeAnswer);
        }

        public synchronized long requests() {
            return count;
        }

        private static long[] concat(long[] a, long[] b) {
            long[] joined = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, joined, a.length, b.length);
            return joined;
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final HttpClient http;
    private final String base;
    private final RawHttp raw;
    private final int slowBodies;

    public HostileUsers(HttpClient http, String base, int port, ExecutorService readers, int slowBodies) {
        this.http = http;
        this.base = base;
        this.raw = new RawHttp(port, readers);
        this.slowBodies = slowBodies;
    }

    /** Runs each of {@code kinds} whose target exists for {@code duration}; returns once their last request ended. */
    public Map<Kind, Tally> run(Set<Kind> kinds, Targets targets, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        Map<Kind, Tally> tallies = new EnumMap<>(Kind.class);
        List<Runnable> users = new ArrayList<>();
        for (Kind kind : kinds) {
            if (kind == Kind.DELETE_WITHOUT_MANAGE && targets.stateFolder() == null
                    || kind == Kind.DELETE_OVER_CAP && targets.bigFolder() == null) {
                continue;
            }
            Tally tally = new Tally();
            tallies.put(kind, tally);
            int threads = kind == Kind.SLOW_BODY ? slowBodies : 1;
            for (int i = 0; i < threads; i++) {
                AtomicInteger sequence = new AtomicInteger();
                users.add(() -> {
                    long next = System.nanoTime();
                    while (System.nanoTime() < deadline) {
                        LockSupport.parkNanos(next - System.nanoTime());
                        if (System.nanoTime() >= deadline) {
                            break;
                        }
                        next = Math.max(next + kind.interval.toNanos(), System.nanoTime());
                        once(kind, targets, sequence.getAndIncrement(), deadline, tally);
                    }
                });
            }
        }
        ExecutorService threads = Executors.newFixedThreadPool(users.size());
        users.forEach(threads::execute);
        threads.shutdown();
        if (!threads.awaitTermination(duration.toSeconds() + 120, TimeUnit.SECONDS)) {
            threads.shutdownNow();
            throw new IllegalStateException("hostile users still running two minutes after the end of their pass");
        }
        return tallies;
    }

    private void once(Kind kind, Targets targets, int sequence, long deadline, Tally tally) {
        String documents = "/api/v1/" + targets.repository() + "/documents";
        String document = "{\"parentId\":\"" + targets.customerFolder() + "\",\"name\":\"hostile\",\"type\":\"Note\"";
        switch (kind) {
            case CHUNKED_BODY -> rawAnswer(tally, raw.send(post(documents, targets.customerToken(), "application/json"),
                    new RawHttp.GeneratedBody(document + ",\"properties\":{\"junk\":\"", "a", "\"}}", CHUNKED_BYTES), -1,
                    0, deadline));
            case ARRAY_BODY -> {
                RawHttp.GeneratedBody body = new RawHttp.GeneratedBody("[", "{},", "{}]", ARRAY_BYTES);
                rawAnswer(tally, raw.send(post(documents, targets.customerToken(), "application/json"), body,
                        body.length(), 0, deadline));
            }
            case MANY_PARTS -> {
                String boundary = "hostile" + Long.toHexString(RANDOM.nextLong());
                String form = manyParts(boundary, document + "}");
                RawHttp.GeneratedBody body = RawHttp.GeneratedBody.of(form);
                rawAnswer(tally, raw.send(post(documents, targets.customerToken(),
                        "multipart/form-data; boundary=" + boundary), body, body.length(), 0, deadline));
            }
            case SLOW_BODY -> {
                RawHttp.GeneratedBody body = RawHttp.GeneratedBody.of(document + "}");
                rawAnswer(tally, raw.send(post(documents, targets.customerToken(), "application/json"), body,
                        body.length(), SLOW_BYTES_PER_SECOND, deadline));
            }
            case NO_TOKEN -> answer(tally, get(documents + "/" + targets.customerFolder(), null));
            case BAD_TOKEN -> {
                String token = switch (sequence % 4) {
                    case 0 -> Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(48));
                    case 1 -> targets.forgedToken();
                    case 2 -> targets.otherAudienceToken();
                    default -> targets.expiredToken() != null ? targets.expiredToken() : targets.otherAudienceToken();
                };
                answer(tally, get(documents + "/" + targets.customerFolder(), token));
            }
            case SHORT_PREFIX -> answer(tally, get(search(targets, "a*"), targets.customerToken()));
            case MANY_PREFIXES -> answer(tally, get(search(targets, IntStream.range(0, 20)
                    .mapToObj(i -> "ab" + (char) ('a' + i) + "*").collect(Collectors.joining(" "))), targets.customerToken()));
            case DELETE_WITHOUT_MANAGE -> answer(tally, delete(documents + "/" + targets.stateFolder(), targets.staffToken()));
            case DELETE_OVER_CAP -> answer(tally, delete(documents + "/" + targets.bigFolder(), targets.administratorToken()));
            default -> throw new IllegalStateException(kind.name());
        }
    }

    private static String search(Targets targets, String q) {
        return "/api/v1/search?repository=" + targets.repository() + "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8);
    }

    private static String post(String path, String token, String contentType) {
        return "POST " + path + " HTTP/1.1\r\nAuthorization: Bearer " + token + "\r\nContent-Type: " + contentType
                + "\r\nAccept: application/json";
    }

    /** A form of {@value #PARTS} parts: the document, a small file, then parts of about 150 bytes. */
    public static String manyParts(String boundary, String documentJson) {
        StringBuilder form = new StringBuilder();
        form.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"document\"\r\n")
                .append("Content-Type: application/json\r\n\r\n").append(documentJson).append("\r\n");
        form.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n")
                .append("Content-Type: text/plain\r\n\r\nhello\r\n");
        for (int i = 2; i < PARTS; i++) {
            form.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"part").append(i)
                    .append("\"\r\n\r\n").append("x".repeat(64)).append("\r\n");
        }
        return form.append("--").append(boundary).append("--\r\n").toString();
    }

    private HttpRequest get(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request.build();
    }

    private HttpRequest delete(String path, String token) {
        return HttpRequest.newBuilder(URI.create(base + path + "?recursive=true")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).DELETE().build();
    }

    private void answer(Tally tally, HttpRequest request) {
        long start = System.nanoTime();
        String outcome;
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            outcome = Answers.outcome(response.statusCode(), Answers.error(response.body()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            outcome = "failed: " + e.getClass().getSimpleName();
        }
        tally.add(outcome, (System.nanoTime() - start) / 1000, -1, -1);
    }

    private static void rawAnswer(Tally tally, RawHttp.Answer answer) {
        tally.add(answer.outcome(), answer.micros(), answer.bytesSentBeforeAnswer(), answer.clientPort());
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** {@code token} with its signature changed: well formed, signed by no one. */
    public static String forged(String token) {
        int dot = token.lastIndexOf('.');
        byte[] signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
        signature[signature.length / 2] ^= 0x5a;
        return token.substring(0, dot + 1) + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    }
}
