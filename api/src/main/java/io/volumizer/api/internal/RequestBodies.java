package io.volumizer.api.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;

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

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;

import io.javalin.http.Context;

/**
 * Request bodies read under a cap that counts the bytes as they arrive: a chunked body, or one whose Content-Length
 * says less than it sends, is cut at the limit, never read whole (Jetty 11 and Javalin check the header alone). Every
 * request's stream is capped at the largest body any route takes ({@link #install}); a route that takes less reads
 * through {@link #read}.
 */
public final class RequestBodies {

    /** The refusal of a body past its limit: answered 413 by the API's handler of {@link ApiException}. */
    public static ApiException tooLarge(long limit) {
        return new ApiException(413, "payload_too_large", "body", "the request body is larger than this route takes ("
                + limit + " bytes at most): send less, or upload a file as a multipart part");
    }

    private RequestBodies() {
    }

    /** Caps every request's body at {@code maxBytes}, whatever its headers say. */
    public static void install(ServletContextHandler handler, long maxBytes) {
        handler.addFilter(new FilterHolder(new CapFilter(maxBytes)), "/*", EnumSet.of(DispatcherType.REQUEST));
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
        } catch (TooLargeException e) {
            throw tooLarge(limit);
        } catch (IOException e) {
            throw ApiException.badRequest("body", "the request body could not be read to its end: send it again");
        }
    }

    /** {@code in}, throwing {@link TooLargeException} at its {@code limit + 1}th byte. */
    public static InputStream capped(InputStream in, long limit) {
        return new CappedStream(in, limit);
    }

    /** A body past its cap, met while reading it: an IOException, so that every reader of a stream passes it on. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        final long limit;

        TooLargeException(long limit) {
            super("request body past " + limit + " bytes");
            this.limit = limit;
        }

        public ApiException refusal() {
            return tooLarge(limit);
        }
    }

    private static final class CappedStream extends InputStream {
        private final InputStream in;
        private final long limit;
        private long read;

        CappedStream(InputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            // Never asks for more than one byte past the cap: the excess is not even buffered.
            int n = in.read(buffer, offset, (int) Math.min(length, Math.max(1, limit + 1 - read)));
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLargeException {
            read += n;
            if (read > limit) {
                throw new TooLargeException(limit);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private record CapFilter(long maxBytes) implements Filter {

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            chain.doFilter(new CappedRequest((HttpServletRequest) request, maxBytes), response);
            if (((HttpServletResponse) response).getStatus() == 413) {
                // Its answer sent, the connection is closed: else Jetty reads the rest of the body through (a client
                // sending 100 MB would make it read 100 MB) to reuse a connection that the client is still filling.
                response.getOutputStream().close();
                Request.getBaseRequest(request).getHttpChannel().getEndPoint().close();
            }
        }
    }

    private static final class CappedRequest extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream stream;

        CappedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                if (getContentLengthLong() > maxBytes) {
                    throw new TooLargeException(maxBytes);
                }
                ServletInputStream raw = super.getInputStream();
                InputStream capped = capped(raw, maxBytes);
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
