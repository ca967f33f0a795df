package io.quarry.testing;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.vertx.core.http.HttpConnection;
import java.lang.reflect.Method;
import javax.net.ssl.SSLEngine;

/**
 * Whether a server connection's TLS handshake resumed a session. Neither Vert.x nor Netty says so publicly: Netty's
 * OpenSSL engine knows it ({@code SSL_session_reused}) in a method of its own, read here. Test servers run on
 * BoringSSL where the platform has it, as Quarry's client does; elsewhere (or on a Netty without the method) the answer
 * is unknown, and a test that asks is told why.
 */
final class TlsSessions {

  private TlsSessions() {
  }

  /** Whether the connection's handshake resumed a session; throws when that cannot be known. */
  static boolean resumed(HttpConnection connection) {
    try {
      Channel channel = (Channel) connection.getClass().getMethod("channel").invoke(connection);
      SSLEngine engine = channel.pipeline().get(SslHandler.class).engine();
      return (boolean) reused(engine.getClass()).invoke(engine);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("Cannot tell whether a TLS session was resumed: " + e, e);
    }
  }

  private static Method reused(Class<?> engine) throws NoSuchMethodException {
    for (Class<?> c = engine; c != null; c = c.getSuperclass()) {
      try {
        Method method = c.getDeclaredMethod("isSessionReused");
        method.setAccessible(true);
        return method;
      } catch (NoSuchMethodException e) {
        // Declared by a superclass, if at all.
      }
    }
    throw new NoSuchMethodException(engine.getName() + ".isSessionReused()");
  }
}
