package io.quarry.bus;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.spi.VertxServiceProvider;
import io.vertx.core.spi.context.storage.ContextLocal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a log line says it is about — the request, the conversation, the answer — carried by the Vert.x context that
 * handles it, not by a thread (an event loop serves many at once), and across the event bus in message headers, so
 * that a question's lines on the web, llm, dataset and worker nodes share its ids. The logging configuration (the
 * launcher's) reads {@link #current()} for every line; {@link #NODE_ID} is the process's own.
 */
public final class LogContext implements VertxServiceProvider {

  public static final String REQUEST_ID = "request_id";
  public static final String CONVERSATION_ID = "conversation_id";
  public static final String MESSAGE_ID = "message_id";
  public static final String NODE_ID = "node_id";
  /** The fields a context carries, in the order a line shows them. */
  public static final List<String> KEYS = List.of(REQUEST_ID, CONVERSATION_ID, MESSAGE_ID);
  private static final String HEADER_PREFIX = "quarry-log-";
  /** Each field's header name, made once: the interceptors run for every message, a streamed answer's every token. */
  private static final Map<String, String> HEADERS = KEYS.stream()
      .collect(Collectors.toUnmodifiableMap(key -> key, key -> HEADER_PREFIX + key));

  /** Registered when Vert.x loads its service providers, before any Vert.x instance exists, as it must be. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final ContextLocal<Map<String, String>> FIELDS = (ContextLocal) ContextLocal.registerLocal(Map.class);
  private static volatile String nodeId;

  @Override
  public void init(VertxBootstrap builder) {
    // The registration above is all: it runs when Vert.x instantiates this provider.
  }

  /**
   * Adds a field to the context running now, when it is one request's or one message's own (a duplicated context);
   * anything that context runs from now on — its callbacks, the messages it sends — carries it.
   */
  public static void put(String key, String value) {
    if (value != null) {
      putAll(Map.of(key, value));
    }
  }

  private static void putAll(Map<String, String> added) {
    ContextInternal context = own();
    if (context == null || added.isEmpty()) {
      return;
    }
    Map<String, String> fields = current();
    if (fields.isEmpty()) {
      context.putLocal(FIELDS, Map.copyOf(added));
    } else if (!fields.entrySet().containsAll(added.entrySet())) {
      Map<String, String> merged = new HashMap<>(fields);
      merged.putAll(added);
      context.putLocal(FIELDS, Map.copyOf(merged));
    }
  }

  /** The fields of the context running now; none outside one. */
  public static Map<String, String> current() {
    Context context = Vertx.currentContext();
    Map<String, String> fields = context == null ? null : context.getLocal(FIELDS);
    return fields == null ? Map.of() : fields;
  }

  public static void nodeId(String id) {
    nodeId = id;
  }

  public static String nodeId() {
    return nodeId;
  }

  /** From now on what this bus sends carries the sender's fields, and what it delivers is handled with them. */
  public static void install(EventBus bus) {
    bus.addOutboundInterceptor(ctx -> {
      Map<String, String> fields = current();
      for (String key : KEYS) {
        String value = fields.get(key);
        if (value != null) {
          ctx.message().headers().set(HEADERS.get(key), value);
        }
      }
      ctx.next();
    });
    bus.addInboundInterceptor(ctx -> {
      // A streamed answer's every token passes here: nothing is made for a message that carries no fields.
      Map<String, String> sent = null;
      MultiMap headers = ctx.message().headers();
      for (String key : KEYS) {
        String value = headers.get(HEADERS.get(key));
        if (value != null) {
          sent = sent == null ? new HashMap<>(4) : sent;
          sent.put(key, value);
        }
      }
      if (sent != null) {
        putAll(sent);
      }
      ctx.next();
    });
  }

  /** The running context when it is one request's or message's own: fields put on a verticle's would stay for good. */
  private static ContextInternal own() {
    return Vertx.currentContext() instanceof ContextInternal context && context.isDuplicate() ? context : null;
  }
}
