package io.quarry.app;

import com.hazelcast.nio.MemberSocketInterceptor;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door of a node's private cluster. Hazelcast's open-source edition admits any process that knows a cluster's
 * name, and trusts the address a connection claims to come from; so before a single Hazelcast byte, both ends of every
 * cluster connection prove that they hold the member secret the node drew at start (and handed its worker processes
 * over their standard input): a challenge each way, answered with an HMAC of both challenges. The secret never
 * crosses the wire, a recorded exchange cannot be replayed, and a process that cannot answer is cut off before it
 * can join, send an operation or be sent one.
 */
final class MemberGate implements MemberSocketInterceptor {

  private static final Logger log = LoggerFactory.getLogger(MemberGate.class);
  private static final int NONCE_BYTES = 32;
  private static final String HMAC = "HmacSHA256";
  /** A peer that does not answer within this is not one of ours (a worker answers in microseconds). */
  private static final int EXCHANGE_TIMEOUT_MS = 5_000;
  /** One warning per this many refusals, so that a flood of attempts cannot flood the log. */
  private static final long WARN_EVERY = 1_000;

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong refused = new AtomicLong();

  MemberGate(String memberSecret) {
    this.key = new SecretKeySpec(memberSecret.getBytes(StandardCharsets.UTF_8), HMAC);
  }

  @Override
  public void init(Properties properties) {
  }

  /** This member accepted a connection: it challenges first, then proves itself only to a peer that proved itself. */
  @Override
  public void onAccept(Socket socket) throws IOException {
    exchange(socket, () -> {
      byte[] ours = nonce();
      socket.getOutputStream().write(ours);
      byte[] theirs = read(socket, NONCE_BYTES);
      expect(socket, read(socket, NONCE_BYTES), proof("connector", ours, theirs));
      send(socket.getOutputStream(), proof("acceptor", ours, theirs));
    });
  }

  /** This member connected: it answers the challenge with one of its own, and checks the answer to it. */
  @Override
  public void onConnect(Socket socket) throws IOException {
    exchange(socket, () -> {
      byte[] theirs = read(socket, NONCE_BYTES);
      byte[] ours = nonce();
      OutputStream out = socket.getOutputStream();
      out.write(ours);
      send(out, proof("connector", theirs, ours));
      expect(socket, read(socket, NONCE_BYTES), proof("acceptor", theirs, ours));
    });
  }

  private interface Exchange {
    void run() throws IOException;
  }

  private void exchange(Socket socket, Exchange exchange) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(EXCHANGE_TIMEOUT_MS);
    try {
      exchange.run();
    } catch (IOException e) {
      if (refused.getAndIncrement() % WARN_EVERY == 0) {
        log.warn("Refused a cluster connection with {} that could not prove it was started by this node ({} so far)",
            socket.getRemoteSocketAddress(), refused.get());
      }
      throw e;
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(timeout);
      }
    }
  }

  private byte[] nonce() {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    return nonce;
  }

  /** HMAC over the role of the end that proves and both challenges, the acceptor's first. */
  private byte[] proof(String role, byte[] acceptorNonce, byte[] connectorNonce) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(key);
      mac.update(role.getBytes(StandardCharsets.US_ASCII));
      mac.update(acceptorNonce);
      return mac.doFinal(connectorNonce);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(HMAC + " is part of every Java runtime", e);
    }
  }

  private static void send(OutputStream out, byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Exactly {@code n} bytes, unbuffered: what follows the exchange is Hazelcast's, not ours to take. */
  private static byte[] read(Socket socket, int n) throws IOException {
    byte[] bytes = new byte[n];
    new DataInputStream(socket.getInputStream()).readFully(bytes);
    return bytes;
  }

  private static void expect(Socket socket, byte[] answer, byte[] expected) throws IOException {
    if (!MessageDigest.isEqual(answer, expected)) {
      throw new IOException("The peer at " + socket.getRemoteSocketAddress() + " does not hold this node's member"
          + " secret");
    }
  }
}
