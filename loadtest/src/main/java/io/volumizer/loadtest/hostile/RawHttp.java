package io.volumizer.loadtest.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One HTTP/1.1 request written on its own socket to 127.0.0.1, its body generated while it is sent (chunked or under
 * a Content-Length, as fast as the socket takes it or at a set number of bytes a second), and its answer's status
 * read by another thread as soon as it arrives, while the body is still being sent: what a hostile client does that
 * {@link java.net.http.HttpClient} will not (keep sending after the answer, trickle a body, lie in a header), and how
 * much it had sent when the API answered.
 */
public final class RawHttp {

    /** A request's outcome: the answer's status ("413"), or why there was none; the port it was sent from. */
    public record Answer(String outcome, long bytesSentBeforeAnswer, long micros, int clientPort) {
        /** The API closed the connection without an answer while the body was being sent. */
        static final String CLOSED = "closed without an answer";
        /** The pass ended while the body was still being sent (a slow body): the client hung up. */
        static final String CUT = "cut by the client at the end of the pass";
        /** No answer within the wait after the whole body was sent. */
        static final String NO_ANSWER = "no answer";
    }

    private static final int BLOCK = 64 * 1024;
    private static final long ANSWER_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final int port;
    private final ExecutorService readers;

    /** @param readers where each request's answer is read (a thread a request in flight) */
    public RawHttp(int port, ExecutorService readers) {
        this.port = port;
        this.readers = readers;
    }

    /**
     * Sends {@code head} (request line and headers, without the blank line; Content-Length or Transfer-Encoding
     * added here) then {@code body}, stopping as soon as an answer comes, at {@code deadlineNanos}, or when the API
     * closes the connection.
     *
     * @param contentLength  the Content-Length header to send (it may lie), or -1 for a chunked body
     * @param bytesPerSecond 0 for as fast as the socket takes it
     */
    public Answer send(String head, InputStream body, long contentLength, long bytesPerSecond, long deadlineNanos) {
        long start = System.nanoTime();
        AtomicLong sent = new AtomicLong();
        AtomicLong sentAtAnswer = new AtomicLong(-1);
        AtomicBoolean answered = new AtomicBoolean();
        CompletableFuture<String> status = new CompletableFuture<>();
        int clientPort = -1;
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            clientPort = socket.getLocalPort();
            InputStream in = socket.getInputStream();
            readers.execute(() -> {
                try {
                    int code = statusOf(in);
                    sentAtAnswer.set(sent.get());
                    answered.set(true);
                    status.complete(Answers.outcome(code, errorOf(in)));
                } catch (IOException | RuntimeException e) {
                    status.completeExceptionally(e);
                }
            });
            OutputStream out = socket.getOutputStream();
            boolean chunked = contentLength < 0;
            String headers = head + "\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n"
                    + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + contentLength) + "\r\n\r\n";
            boolean cut = false;
            try {
                out.write(headers.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] buffer = new byte[BLOCK];
                while (!answered.get() && !status.isDone()) {
                    if (System.nanoTime() > deadlineNanos) {
                        cut = true;
                        break;
                    }
                    // At a set rate, a twentieth of a second's bytes at a time (one byte for a slow body).
                    int wanted = bytesPerSecond > 0 ? (int) Math.max(1, Math.min(BLOCK, bytesPerSecond / 20)) : BLOCK;
                    int n = body.read(buffer, 0, wanted);
                    if (n < 0) {
                        if (chunked) {
                            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        }
                        out.flush();
                        break;
                    }
                    if (chunked) {
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write(buffer, 0, n);
                    if (chunked) {
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    if (bytesPerSecond > 0) {
                        out.flush();
                    }
                    long total = sent.addAndGet(n);
                    if (bytesPerSecond > 0) {
                        LockSupport.parkNanos(start + total * 1_000_000_000L / bytesPerSecond - System.nanoTime());
                    }
                }
            } catch (IOException e) {
                // The API stopped reading: its answer, if any, is already on its way to the reader.
            }
            try {
                String outcome = status.get(cut ? TimeUnit.MILLISECONDS.toNanos(100) : ANSWER_WAIT_NANOS, TimeUnit.NANOSECONDS);
                return new Answer(outcome, sentAtAnswer.get(), micros(start), clientPort);
            } catch (TimeoutException e) {
                return new Answer(cut ? Answer.CUT : Answer.NO_ANSWER, sent.get(), micros(start), clientPort);
            } catch (java.util.concurrent.ExecutionException e) {
                return new Answer(cut ? Answer.CUT : Answer.CLOSED, sent.get(), micros(start), clientPort);
            }
        } catch (IOException e) {
            return new Answer("connection failed: " + e.getClass().getSimpleName(), sent.get(), micros(start), clientPort);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(Answer.CUT, sent.get(), micros(start), clientPort);
        }
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1000;
    }

    /** The error code of the answer's JSON body, after its status line; null when it has none or cannot be read. */
    private static String errorOf(InputStream in) {
        try {
            long length = -1;
            for (String line = line(in); !line.isEmpty(); line = line(in)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(line.substring(colon + 1).strip());
                }
            }
            if (length < 0 || length > 64 * 1024) {
                return null;
            }
            return Answers.error(new String(in.readNBytes((int) length), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.append((char) b);
            if (line.length() > 8192) {
                throw new IOException("header line too long");
            }
        }
        return line.toString().strip();
    }

    /** The status of the answer's first line ({@code HTTP/1.1 413 Payload Too Large}). */
    private static int statusOf(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.append((char) b);
            if (line.length() > 1024) {
                break;
            }
        }
        String[] words = line.toString().strip().split(" ");
        if (words.length < 2 || !words[0].startsWith("HTTP/")) {
            throw new IOException("no HTTP answer: '" + line + "'");
        }
        return Integer.parseInt(words[1]);
    }

    /**
     * A body generated as it is read: {@code prefix}, then {@code filler} repeated, then {@code suffix}, {@code length}
     * bytes in all (at least the prefix and suffix): a 100 MB JSON document or a 20 MB array of empty objects without
     * holding either.
     */
    public static final class GeneratedBody extends InputStream {
        private final byte[] prefix;
        private final byte[] suffix;
        private final byte[] fillerBlock;
        private final int fillerLength;
        private final long length;
        private long position;

        GeneratedBody(String prefix, String filler, String suffix, long length) {
            this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
            this.suffix = suffix.getBytes(StandardCharsets.UTF_8);
            byte[] pattern = filler.getBytes(StandardCharsets.UTF_8);
            this.fillerLength = pattern.length;
            this.length = Math.max(length, this.prefix.length + this.suffix.length);
            int repeats = pattern.length == 0 ? 0 : BLOCK / pattern.length + 2;
            this.fillerBlock = new byte[repeats * pattern.length];
            for (int i = 0; i < repeats; i++) {
                System.arraycopy(pattern, 0, fillerBlock, i * pattern.length, pattern.length);
            }
            if (pattern.length == 0 && this.length > this.prefix.length + this.suffix.length) {
                throw new IllegalArgumentException("a body longer than its prefix and suffix needs a filler");
            }
        }

        /** A body that is exactly {@code text}. */
        static GeneratedBody of(String text) {
            return new GeneratedBody(text, "", "", 0);
        }

        long length() {
            return length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int wanted) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(wanted, length - position);
            long fillerEnd = length - suffix.length;
            for (int done = 0; done < n; ) {
                long at = position + done;
                int step;
                if (at < prefix.length) {
                    step = (int) Math.min(n - done, prefix.length - at);
                    System.arraycopy(prefix, (int) at, buffer, offset + done, step);
                } else if (at < fillerEnd) {
                    long intoFiller = at - prefix.length;
                    int from = (int) (intoFiller % fillerLength);
                    step = (int) Math.min(Math.min(n - done, fillerEnd - at), fillerBlock.length - from);
                    System.arraycopy(fillerBlock, from, buffer, offset + done, step);
                } else {
                    step = (int) Math.min(n - done, length - at);
                    System.arraycopy(suffix, (int) (at - fillerEnd), buffer, offset + done, step);
                }
                done += step;
            }
            position += n;
            return n;
        }
    }
}
