package io.volumizer.loadtest.hostile;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import io.volumizer.loadtest.hostile.SecurityQueries.Query;

/**
 * A branch's staff at work: {@code users} threads, each a user sending the navigation and search requests of
 * {@link SecurityQueries} in turn, with its own token. Closed loop (each user sends its next request when the last
 * is answered: the API's capacity) or open loop (each user on a fixed schedule, its latency counted from when the
 * request was due, so that a stalled API shows in it rather than in fewer requests).
 */
public final class HonestUsers {

    /**
     * What honest users got: latencies of every answer, answers by status and error code ({@link Answers}), requests
     * that got none.
     */
    public record Outcome(Latencies latencies, Map<String, Long> byAnswer, long failed, long offered) {

        public long ok() {
            return byAnswer.getOrDefault("200", 0L);
        }

        /** Answers 401, or 429 of an authentication penalty. */
        public long refusedByAuthentication() {
            return byAnswer.entrySet().stream().filter(e -> Answers.refusedByAuthentication(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        /** Answers other than 200 and authentication's refusals, and requests without an answer. */
        public long errors() {
            return failed + byAnswer.entrySet().stream().filter(e -> !e.getKey().equals("200")
                    && !Answers.refusedByAuthentication(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        }
    }

    /** A 200's body is not read; another's is, for its error code. */
    private static final HttpResponse.BodyHandler<String> ERRORS_ONLY = info -> info.statusCode() == 200
            ? HttpResponse.BodySubscribers.replacing(null) : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final String base;
    private final List<Query> queries;
    private final int users;

    public HonestUsers(HttpClient http, String base, List<Query> queries, int users) {
        this.http = http;
        this.base = base;
        this.queries = queries;
        this.users = users;
    }

    /** Every user sends without pause for {@code duration}: how many requests a second the API answers. */
    public Outcome closedLoop(IntFunction<String> tokenOfUser, Duration duration) {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        return run(tokenOfUser, start, user -> new Schedule() {
            @Override
            public long next(long k) {
                long now = System.nanoTime();
                return now < end ? now : -1;
            }
        }, duration);
    }

    /**
     * The users send {@code perSecond} requests a second in all for {@code duration}, each user on its own evenly
     * spaced schedule (users offset from one another); a request's latency runs from when it was due.
     */
    public Outcome openLoop(IntFunction<String> tokenOfUser, double perSecond, Duration duration) {
        long interval = (long) (1e9 * users / perSecond);
        long start = System.nanoTime() + 50_000_000L;
        long end = start + duration.toNanos();
        return run(tokenOfUser, start, user -> k -> {
            long due = start + user * interval / users + k * interval;
            return due < end ? due : -1;
        }, duration);
    }

    /** When a user's k-th request is due (nanoTime), or -1 when it has sent its last. */
    private interface Schedule {
        long next(long k);
    }

    private Outcome run(IntFunction<String> tokenOfUser, long start, IntFunction<Schedule> schedules, Duration duration) {
        ExecutorService threads = Executors.newFixedThreadPool(users);
        try {
            List<Future<UserOutcome>> running = new ArrayList<>();
            for (int user = 0; user < users; user++) {
                int u = user;
                String token = tokenOfUser.apply(user);
                running.add(threads.submit(() -> user(u, token, schedules.apply(u))));
            }
            List<Latencies> latencies = new ArrayList<>();
            Map<String, Long> byAnswer = new TreeMap<>();
            long failed = 0;
            long offered = 0;
            for (Future<UserOutcome> user : running) {
                UserOutcome outcome = user.get();
                latencies.add(new Latencies(Arrays.copyOf(outcome.micros, outcome.count), 0));
                outcome.byAnswer.forEach((answer, n) -> byAnswer.merge(answer, n, Long::sum));
                failed += outcome.failed;
                offered += outcome.offered;
            }
            Latencies all = Latencies.of(latencies);
            // Throughput over the time the users were meant to send (their last answers may come a little later).
            return new Outcome(new Latencies(all.micros(), duration.toNanos()), byAnswer, failed, offered);
        } catch (Exception e) {
            throw new IllegalStateException("honest users: " + (e.getCause() != null ? e.getCause() : e), e);
        } finally {
            threads.shutdownNow();
        }
    }

    private static final class UserOutcome {
        long[] micros = new long[1024];
        int count;
        final Map<String, Long> byAnswer = new TreeMap<>();
        long failed;
        long offered;

        void add(long value) {
            if (count == micros.length) {
                micros = Arrays.copyOf(micros, count * 2);
            }
            micros[count++] = value;
        }
    }

    private UserOutcome user(int user, String token, Schedule schedule) {
        UserOutcome outcome = new UserOutcome();
        int offset = user * Math.max(1, queries.size() / users);
        for (long k = 0; ; k++) {
            long due = schedule.next(k);
            if (due < 0) {
                return outcome;
            }
            LockSupport.parkNanos(due - System.nanoTime());
            Query query = queries.get((int) ((offset + k) % queries.size()));
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + query.path())).timeout(TIMEOUT)
                    .header("Authorization", "Bearer " + token).header("Accept", "application/json").GET().build();
            outcome.offered++;
            try {
                HttpResponse<String> response = http.send(request, ERRORS_ONLY);
                outcome.add((System.nanoTime() - due) / 1000);
                outcome.byAnswer.merge(Answers.outcome(response.statusCode(), Answers.error(response.body())), 1L, Long::sum);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return outcome;
            } catch (Exception e) {
                outcome.failed++;
            }
        }
    }
}
