package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.javalin.Javalin;

/**
 * A body refused before it is read must still reach its client as an answer: the connection is closed only once the
 * client had the time to read it, never while its last bytes are unread (the peer's reset would discard the answer).
 */
class RefusedBodyAnswerTest {

    private static final int LIMIT = 1 << 20;
    private static Javalin app;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = 64L << 20;
            config.jetty.modifyServletContextHandler(handler -> RequestBodies.install(handler, 64L << 20, 0));
        });
        app.post("/body", ctx -> ctx.result(String.valueOf(RequestBodies.read(ctx, LIMIT).length)));
        app.exception(RequestBodies.RefusedBodyException.class, (e, ctx) -> ctx.header("Connection", "close")
                .status(e.refusal().status()).result(e.refusal().error()));
        app.exception(ApiException.class, (e, ctx) -> ctx.header("Connection", "close").status(e.status())
                .result(e.error()));
        app.start("127.0.0.1", 0);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        app.stop();
    }

    @Test
    void everyAnnouncedBodyOverItsLimitIsAnswered413() throws Exception {
        List<String> lost = refusals(new byte[LIMIT + LIMIT / 2], 100);
        assertThat(lost).as("requests of 1.5 MB whose 413 never arrived").isEmpty();
    }

    @Test
    void aBodyOverTheServersCapIsAnsweredToo() throws Exception {
        List<String> lost = refusals(new byte[20 << 20], 10);
        assertThat(lost).as("requests of 20 MB whose 413 never arrived").isEmpty();
    }

    @Test
    void aClientThatExpectsToContinueIsAnsweredBeforeItSendsItsBody() throws Exception {
        // A raw socket: the JDK 17 client waits for ever when a final answer comes instead of 100 Continue.
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.setSoTimeout((int) RequestBodies.LINGER_MILLIS / 2);
            socket.getOutputStream().write(("POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + (100 << 20)
                    + "\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).as("the answer, and the connection closed before the linger's end, no body sent")
                    .startsWith("HTTP/1.1 413 ").doesNotContain("100 Continue");
        }
    }

    @Test
    void anEndlessChunkedBodyIsNotReadThrough() throws Exception {
        AtomicLong pulled = new AtomicLong();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                pulled.incrementAndGet();
                return 'a';
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                Arrays.fill(buffer, offset, offset + length, (byte) 'a');
                pulled.addAndGet(length);
                return length;
            }
        };
        HttpRequest request = post(BodyPublishers.ofInputStream(() -> endless));
        try {
            client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException closed) {
            // Past the linger the connection is closed: the answer may be lost, the bytes are what counts.
        }
        assertThat(pulled.get()).as("bytes of an endless body the server made its client send").isLessThan(8L << 20);
    }

    private static List<String> refusals(byte[] body, int times) throws InterruptedException {
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            HttpRequest request = post(BodyPublishers.ofByteArray(body));
            try {
                HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 413) {
                    lost.add(i + ": " + answer.statusCode() + " " + answer.body());
                }
            } catch (IOException e) {
                lost.add(i + ": " + e);
            }
        }
        return lost;
    }

    private static HttpRequest post(HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/body"))
                .timeout(Duration.ofSeconds(30)).POST(body).build();
    }
}
