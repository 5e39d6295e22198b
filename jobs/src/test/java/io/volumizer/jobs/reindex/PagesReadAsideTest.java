package io.volumizer.jobs.reindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class PagesReadAsideTest {

    @Test
    void pagesComeInOrderTheLastOnePartial() throws Exception {
        List<Integer> results = IntStream.range(0, 7).boxed().toList();
        List<List<Integer>> taken = new ArrayList<>();
        try (PagesReadAside<Integer> pages = new PagesReadAside<>("test", results, 3, Duration.ZERO)) {
            for (Optional<List<Integer>> page = pages.next(); page.isPresent(); page = pages.next()) {
                taken.add(page.get());
            }
        }
        assertThat(taken).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6));
    }

    @Test
    void aTaskWaitingForABlockedReadEndsWhenInterruptedAndStopsTheRead() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean readerInterrupted = new AtomicBoolean();
        Iterable<Integer> blocked = () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    never.await(); // a read that never answers; unlike a driver's, it answers the interrupt of close()
                } catch (InterruptedException e) {
                    readerInterrupted.set(true);
                    Thread.currentThread().interrupt();
                }
                return false;
            }

            @Override
            public Integer next() {
                throw new AssertionError();
            }
        };
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread task = new Thread(() -> {
            try (PagesReadAside<Integer> pages = new PagesReadAside<>("test", blocked, 3, Duration.ZERO)) {
                pages.next();
                ended.complete(null);
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        task.start();
        Thread.sleep(200); // the task waiting for its first page
        assertThat(ended).isNotDone();

        task.interrupt(); // what a cancellation does to the task's thread
        assertThat(ended.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(within(readerInterrupted::get)).as("the read stopped when its reader was closed").isTrue();
    }

    @Test
    void whatTheReadThrowsIsThrownToTheTask() {
        Iterable<Integer> failing = () -> {
            throw new IllegalStateException("MongoDB unavailable");
        };
        try (PagesReadAside<Integer> pages = new PagesReadAside<>("test", failing, 3, Duration.ZERO)) {
            assertThatThrownBy(() -> pages.next()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("MongoDB unavailable");
        }
    }

    @Test
    void aHeldReadStartsAfterItsHold() throws Exception {
        long start = System.nanoTime();
        try (PagesReadAside<Integer> pages = new PagesReadAside<>("test", List.of(1), 3, Duration.ofMillis(300))) {
            assertThat(pages.next()).contains(List.of(1));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    /** Whether {@code condition} held within 10 s. */
    private static boolean within(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }
}
