package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.javalin.http.Handler;
import io.volumizer.api.internal.Admission.RequestClass;

class AdmissionTest {

    /** Who the next request's caller is. */
    private volatile String caller = "alice";
    private final Admission admission = new Admission(Map.of(RequestClass.reads, 1, RequestClass.search, 2,
            RequestClass.writes, 1, RequestClass.blobs, 1), Duration.ofMillis(20), 75, ctx -> caller);

    @Test
    void aRequestBeyondItsClassesPlacesIsRefusedAndTheOtherClassesAreNot() throws Exception {
        assertThat(admission.overloaded()).as("before any refusal").isFalse();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        Handler busy = admission.guard(RequestClass.reads, ctx -> {
            inside.countDown();
            release.await();
        });
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> handle(busy));
        inside.await();

        caller = "bob";
        assertThatThrownBy(() -> admission.guard(RequestClass.reads, ctx -> { }).handle(null))
                .isInstanceOf(Admission.OverloadedException.class).hasMessageContaining("reads");
        admission.guard(RequestClass.search, ctx -> { }).handle(null);
        assertThat(admission.overloaded()).isTrue();
        assertThat(admission.status().get("reads")).containsEntry("inFlight", 1L).containsEntry("refused", 1L);

        release.countDown();
        first.join();
        admission.guard(RequestClass.reads, ctx -> { }).handle(null);
        assertThat(admission.status().get("reads")).containsEntry("inFlight", 0L);
    }

    @Test
    void oneCallerHoldsAtMostItsShareOfAClassesPlaces() throws Exception {
        Admission four = new Admission(Map.of(RequestClass.reads, 4, RequestClass.search, 1, RequestClass.writes, 1,
                RequestClass.blobs, 1), Duration.ofMillis(20), 50, ctx -> caller);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(2);
        Handler busy = four.guard(RequestClass.reads, ctx -> {
            inside.countDown();
            release.await();
        });
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> handle(busy));
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> handle(busy));
        inside.await();

        assertThatThrownBy(() -> four.guard(RequestClass.reads, ctx -> { }).handle(null))
                .isInstanceOf(Admission.CallerShareException.class);
        caller = "bob";
        four.guard(RequestClass.reads, ctx -> { }).handle(null);
        release.countDown();
        CompletableFuture.allOf(first, second).join();
        caller = "alice";
        four.guard(RequestClass.reads, ctx -> { }).handle(null);
    }

    @Test
    void aPlaceIsGivenBackWhenTheHandlerFails() throws Exception {
        Handler failing = admission.guard(RequestClass.writes, ctx -> {
            throw new IllegalStateException("backend down");
        });
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> failing.handle(null)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(admission.status().get("writes")).containsEntry("inFlight", 0L).containsEntry("refused", 0L);
    }

    private static void handle(Handler handler) {
        try {
            handler.handle(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
