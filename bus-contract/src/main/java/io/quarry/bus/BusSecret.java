package io.quarry.bus;

import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.EventBus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A clustered event bus takes frames from anyone who can reach its port, and hands them to the consumer
 * they name: joining the cluster is not needed to send. Every member that knows the secret marks what it
 * sends with it (replies included), and delivers only what carries it; anything else is dropped unanswered
 * (an answer would carry the secret back to the sender).
 */
public final class BusSecret {

  /** The header every message of a cluster with a secret carries. An application on the bus sets it too. */
  public static final String HEADER = "quarry-bus-secret";

  private static final Logger log = LoggerFactory.getLogger(BusSecret.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  /** One warning per this many dropped messages, so that a flood of forgeries cannot flood the log. */
  private static final long WARN_EVERY = 1_000;

  private BusSecret() {
  }

  /** 256 random bits, as text fit for a header, a cluster name or a line on a pipe. */
  public static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** From now on this bus marks what it sends with {@code secret} and delivers only what carries it. */
  public static void install(EventBus bus, String secret) {
    byte[] expected = secret.getBytes(StandardCharsets.UTF_8);
    AtomicLong dropped = new AtomicLong();
    bus.addOutboundInterceptor(ctx -> {
      ctx.message().headers().set(HEADER, secret);
      ctx.next();
    });
    bus.addInboundInterceptor(ctx -> {
      if (carries(ctx, expected)) {
        ctx.next();
      } else if (dropped.getAndIncrement() % WARN_EVERY == 0) {
        log.warn("Dropped a message to '{}' without this cluster's secret ({} so far)", ctx.message().address(),
            dropped.get());
      }
    });
  }

  private static boolean carries(DeliveryContext<?> ctx, byte[] expected) {
    String sent = ctx.message().headers().get(HEADER);
    return sent != null && MessageDigest.isEqual(expected, sent.getBytes(StandardCharsets.UTF_8));
  }
}
