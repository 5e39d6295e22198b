package io.volumizer.api.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;

import io.javalin.http.Context;

/**
 * Request bodies read under a cap that counts the bytes as they arrive: a chunked body, or one whose Content-Length
 * says less than it sends, is cut at the limit, never read whole (Jetty 11 and Javalin check the header alone). Every
 * request's stream is capped at the largest body any route takes ({@link #install}); a route that takes less reads
 * through {@link #read}. A body that keeps the API waiting is cut too, by the time the API spends waiting for its bytes:
 * Jetty's own minimum rate counts from the request's arrival, so it cut small bodies that a busy API read late.
 */
public final class RequestBodies {

    /** Waiting this long for a body's bytes is free: a client's first packets, a pause of its network. */
    static final long WAIT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * After a 413, how long at most the API reads and drops the body's rest before it closes the connection, and how
     * much of a body of no announced length (an announced one is read to its end, if the API takes bodies that large):
     * a client reads its answer only once it has sent its body, and a connection closed before would be reset.
     */
    static final long LINGER_MILLIS = 5_000;
    static final long LINGER_UNANNOUNCED_BYTES = 2 * 1024 * 1024;

    /** The refusal of a body past its limit: answered 413 by the API's handler of {@link ApiException}. */
    public static ApiException tooLarge(long limit) {
        return new ApiException(413, "payload_too_large", "body", "the request body is larger than this route takes ("
                + limit + " bytes at most): send less, or upload a file as a multipart part");
    }

    /** The refusal of a body that came slower than {@code minBytesPerSecond} while the API waited for it. */
    public static ApiException tooSlow(long minBytesPerSecond) {
        return new ApiException(408, "too_slow", "body", "the request body came slower than " + minBytesPerSecond
                + " bytes a second: send it in one go");
    }

    private RequestBodies() {
    }

    /**
     * Caps every request's body at {@code maxBytes}, whatever its headers say, and cuts one whose bytes, once the API
     * waits for them, come slower than {@code minBytesPerSecond} (0: no minimum).
     */
    public static void install(ServletContextHandler handler, long maxBytes, long minBytesPerSecond) {
        handler.addFilter(new FilterHolder(new CapFilter(maxBytes, minBytesPerSecond)), "/*",
                EnumSet.of(DispatcherType.REQUEST));
    }

    /**
     * The request's body, at most {@code limit} bytes: a 413 as soon as its Content-Length or its bytes say more,
     * having read at most {@code limit + 1} of them.
     */
    public static byte[] read(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            throw tooLarge(limit);
        }
        try (InputStream in = capped(ctx.req().getInputStream(), limit)) {
            return in.readAllBytes();
        } catch (RefusedBodyException e) {
            throw e.refusal();
        } catch (IOException e) {
            throw ApiException.badRequest("body", "the request body could not be read to its end: send it again");
        }
    }

    /** {@code in}, refusing its {@code limit + 1}th byte (413). */
    public static InputStream capped(InputStream in, long limit) {
        return new CappedStream(in, limit, 0);
    }

    /**
     * A body refused while it is read (past its cap: 413; too slow: 408): an IOException, so that every reader of a
     * stream (Jackson, FileUpload) passes it on, and the API answers its {@link #refusal}.
     */
    public static final class RefusedBodyException extends IOException {
        private static final long serialVersionUID = 1L;

        private final transient ApiException refusal;

        RefusedBodyException(ApiException refusal) {
            super(refusal.getMessage());
            this.refusal = refusal;
        }

        public ApiException refusal() {
            return refusal;
        }
    }

    /**
     * Counts the bytes read and the time spent waiting for them inside {@code in.read}; the time the API spends on
     * other work (a permission check before it reads the body) is the API's, not the client's.
     */
    static final class CappedStream extends InputStream {
        private final InputStream in;
        private final long limit;
        private final long minBytesPerSecond;
        private long read;
        private long waitedNanos;

        CappedStream(InputStream in, long limit, long minBytesPerSecond) {
            this.in = in;
            this.limit = limit;
            this.minBytesPerSecond = minBytesPerSecond;
        }

        @Override
        public int read() throws IOException {
            long start = System.nanoTime();
            int b = in.read();
            count(b >= 0 ? 1 : 0, System.nanoTime() - start);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            long start = System.nanoTime();
            // Never asks for more than one byte past the cap: the excess is not even buffered.
            int n = in.read(buffer, offset, (int) Math.min(length, Math.max(1, limit + 1 - read)));
            count(Math.max(n, 0), System.nanoTime() - start);
            return n;
        }

        private void count(int n, long waited) throws RefusedBodyException {
            read += n;
            if (read > limit) {
                throw new RefusedBodyException(tooLarge(limit));
            }
            waitedNanos += waited;
            if (minBytesPerSecond > 0 && waitedNanos > WAIT_GRACE_NANOS
                    && read < minBytesPerSecond * (waitedNanos - WAIT_GRACE_NANOS) / TimeUnit.SECONDS.toNanos(1)) {
                throw new RefusedBodyException(tooSlow(minBytesPerSecond));
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private record CapFilter(long maxBytes, long minBytesPerSecond) implements Filter {

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            chain.doFilter(new CappedRequest((HttpServletRequest) request, maxBytes, minBytesPerSecond), response);
            int status = ((HttpServletResponse) response).getStatus();
            if (status == 413 || status == 408) {
                // Its answer sent, the connection is closed: else Jetty reads the rest of the body through (a client
                // sending 100 MB would make it read 100 MB) to reuse a connection that the client is still filling.
                // Closed at once, with the body's bytes unread, it would be reset, and a reset discards the answer if
                // the client has not read it yet: a body too large is read first, within bounds, as a web server's
                // lingering close. A body too slow is not waited for again: its client is holding the API up.
                response.getOutputStream().close();
                EndPoint endPoint = Request.getBaseRequest(request).getHttpChannel().getEndPoint();
                if (status == 413) {
                    endPoint.shutdownOutput();
                    endPoint.setIdleTimeout(LINGER_MILLIS);
                    long announced = request.getContentLengthLong();
                    drop(request, announced >= 0 && announced <= maxBytes ? announced : LINGER_UNANNOUNCED_BYTES,
                            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS));
                }
                endPoint.close();
            }
        }

        /** Reads and drops up to {@code most} bytes of the request's body until its end or {@code deadline}. */
        private static void drop(ServletRequest request, long most, long deadline) {
            byte[] buffer = new byte[64 * 1024];
            long dropped = 0;
            try {
                // A client that asked to continue and was answered first sent no body: Jetty refuses the stream.
                InputStream unread = request.getInputStream();
                while (dropped < most && System.nanoTime() < deadline) {
                    int n = unread.read(buffer, 0, (int) Math.min(buffer.length, most - dropped));
                    if (n < 0) {
                        return;
                    }
                    dropped += n;
                }
            } catch (IOException closedIdleOrNeverSent) {
                // The client closed, sent nothing for the linger's time, or was never to send: nothing to wait for.
            }
        }
    }

    private static final class CappedRequest extends HttpServletRequestWrapper {
        private final long maxBytes;
        private final long minBytesPerSecond;
        private ServletInputStream stream;

        CappedRequest(HttpServletRequest request, long maxBytes, long minBytesPerSecond) {
            super(request);
            this.maxBytes = maxBytes;
            this.minBytesPerSecond = minBytesPerSecond;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                if (getContentLengthLong() > maxBytes) {
                    throw new RefusedBodyException(tooLarge(maxBytes));
                }
                ServletInputStream raw = super.getInputStream();
                InputStream capped = new CappedStream(raw, maxBytes, minBytesPerSecond);
                stream = new ServletInputStream() {
                    @Override
                    public int read() throws IOException {
                        return capped.read();
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        return capped.read(buffer, offset, length);
                    }

                    @Override
                    public boolean isFinished() {
                        return raw.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return raw.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        raw.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
