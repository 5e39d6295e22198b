package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    @Test
    void aSmallBodyReadLateIsNotTooSlow() throws Exception {
        InputStream body = new ByteArrayInputStream("{\"title\":\"late\"}".getBytes());
        // The API's own work before it reads (a permission check on a busy machine) is not the client's wait.
        Thread.sleep(1_500);
        try (InputStream in = new RequestBodies.CappedStream(body, 1024, 4096)) {
            assertThat(in.readAllBytes()).hasSize(16);
        }
    }

    @Test
    void aTrickledBodyIsCutOnceItsWaitPassesTheGrace() {
        long started = System.nanoTime();
        InputStream in = new RequestBodies.CappedStream(new Trickle(10), 1024, 1_000);
        assertThatThrownBy(in::readAllBytes).isInstanceOf(RequestBodies.RefusedBodyException.class)
                .extracting(e -> ((RequestBodies.RefusedBodyException) e).refusal().status()).isEqualTo(408);
        assertThat(System.nanoTime() - started).isGreaterThan(RequestBodies.WAIT_GRACE_NANOS);
    }

    @Test
    void aBodyPastItsCapIsCutAtTheFirstByteOver() {
        InputStream in = new RequestBodies.CappedStream(new ByteArrayInputStream(new byte[100]), 10, 0);
        assertThatThrownBy(in::readAllBytes).isInstanceOf(RequestBodies.RefusedBodyException.class)
                .extracting(e -> ((RequestBodies.RefusedBodyException) e).refusal().status()).isEqualTo(413);
    }

    /** One byte every {@code millis}, for ever: a client holding a request open. */
    private static final class Trickle extends InputStream {
        private final long millis;

        Trickle(long millis) {
            this.millis = millis;
        }

        @Override
        public int read() throws IOException {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return 'x';
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            buffer[offset] = (byte) read();
            return 1;
        }
    }
}
