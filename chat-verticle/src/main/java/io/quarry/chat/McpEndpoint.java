package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.BusFailure;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.TokenUser;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.HashMap;
import java.util.Map;

/**
 * Quarry's MCP server at {@code /mcp}, over the Streamable HTTP transport: each POST carries one JSON-RPC message and
 * is answered with JSON, or, for a question (which streams its answer as progress), with an event stream that ends
 * with the answer. No session is kept ({@code Mcp-Session-Id} is never set; GET and DELETE are 405), so any web node
 * behind a balancer answers any request. Every request needs an API token ({@code Authorization: Bearer}), looked up
 * at each request as REST and the bridge look it up: in local mode too, since any program on the machine can reach
 * the port. A page of another site is refused by its Origin, as MCP requires against DNS rebinding.
 */
final class McpEndpoint {

  static final String PATH = "/mcp";
  static final String NO_TOKEN = "MCP needs an API token: send Authorization: Bearer qt_… (java -jar quarry.jar token"
      + " create, or the account page)";
  /** An event stream quiet this long gets a comment, so that no proxy takes it for a dead connection. */
  private static final long HEARTBEAT_MS = 15_000;
  private static final String CALLER = "quarry.mcp.caller";

  private final Vertx vertx;
  private final StorageClient storage;
  private final McpProtocol protocol;
  private final TokenPace pace;
  private final int maxBodyBytes;
  /** Requests running on this node by user and request id, for {@code notifications/cancelled}. */
  private final Map<String, McpCall> running = new HashMap<>();

  McpEndpoint(Vertx vertx, StorageClient storage, McpProtocol protocol, TokenPace pace, int maxBodyBytes) {
    this.vertx = vertx;
    this.storage = storage;
    this.protocol = protocol;
    this.pace = pace;
    this.maxBodyBytes = maxBodyBytes;
  }

  void mount(Router router) {
    // Routes of one handler each, in this order: Vert.x Web will not read a body after authentication on one route.
    router.post(PATH).handler(JsonBodies::holdUnread);
    router.post(PATH).handler(McpEndpoint::sameSite);
    router.post(PATH).handler(JsonBodies::check);
    router.post(PATH).handler(this::authenticate);
    router.post(PATH).handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes));
    router.post(PATH).handler(this::post);
    router.route(PATH).handler(ctx -> ctx.response().setStatusCode(405).putHeader("Allow", "POST").end());
  }

  private static void sameSite(RoutingContext ctx) {
    String origin = ctx.request().getHeader("Origin");
    if (origin != null && !Origins.same(ctx.request(), origin)) {
      refuse(ctx, 403, JsonRpc.INVALID_REQUEST, "Requests from other sites are refused");
      return;
    }
    ctx.next();
  }

  private void authenticate(RoutingContext ctx) {
    String token = Auth.bearer(ctx);
    if (token == null) {
      refuse(ctx, 401, JsonRpc.UNAUTHORIZED, NO_TOKEN);
      return;
    }
    BridgeConnection.unknownRefused(storage.tokenUser(Sha256.hex(token))).compose(pace::check).onSuccess(found -> {
      ctx.put(CALLER, found);
      ctx.next();
    }).onFailure(e -> {
      String said = HttpErrors.said(e, "MCP sign-in").message();
      switch (Failure.classify(e)) {
        case UNAUTHORIZED -> refuse(ctx, 401, JsonRpc.UNAUTHORIZED, said);
        case RATE_LIMITED -> {
          ctx.response().putHeader("Retry-After", String.valueOf(BusFailure.of(e).resetsInSeconds().orElse(1)));
          refuse(ctx, 429, JsonRpc.INTERNAL_ERROR, said);
        }
        default -> refuse(ctx, 503, JsonRpc.INTERNAL_ERROR, said);
      }
    });
  }

  private void post(RoutingContext ctx) {
    JsonObject message;
    try {
      Object parsed = Json.decodeValue(ctx.body().buffer());
      if (!(parsed instanceof JsonObject object) || !"2.0".equals(object.getValue("jsonrpc"))) {
        refuse(ctx, 400, JsonRpc.INVALID_REQUEST, "Send one JSON-RPC 2.0 message, an object, per request");
        return;
      }
      message = object;
    } catch (DecodeException | NullPointerException e) {
      refuse(ctx, 400, JsonRpc.PARSE_ERROR, "The body is not JSON");
      return;
    }
    String version = ctx.request().getHeader("MCP-Protocol-Version");
    if (version != null && !McpProtocol.VERSIONS.contains(version)) {
      refuse(ctx, 400, JsonRpc.INVALID_REQUEST, "Unsupported MCP-Protocol-Version " + version + ": this server speaks "
          + String.join(", ", McpProtocol.VERSIONS));
      return;
    }
    if (!(message.getValue("method") instanceof String method)) {
      ctx.response().setStatusCode(202).end();
    } else if (!message.containsKey("id")) {
      notified(ctx, method, params(message));
    } else {
      request(ctx, message.getValue("id"), method, params(message));
    }
  }

  private void request(RoutingContext ctx, Object id, String method, JsonObject params) {
    if (!(id instanceof String) && !(id instanceof Number)) {
      refuse(ctx, 400, JsonRpc.INVALID_REQUEST, "A request's id must be a string or a number");
      return;
    }
    TokenUser caller = ctx.get(CALLER);
    McpStream stream = new McpStream(vertx, ctx.response(), HEARTBEAT_MS);
    boolean streams = streams(ctx, method, params);
    McpCall call = new McpCall(caller.user(), caller.scope(), progressToken(params), streams ? stream::send : n -> { });
    String key = caller.user().id() + "\n" + id;
    running.put(key, call);
    if (streams) {
      stream.open();
    }
    answer(call, method, params).onComplete(done -> {
      running.remove(key, call);
      JsonObject reply = done.succeeded() ? JsonRpc.result(id, done.result()) : error(id, done.cause());
      if (streams) {
        stream.end(reply);
      } else if (!ctx.response().closed()) {
        Replies.json(ctx, 200, reply);
      }
    });
  }

  private Future<JsonObject> answer(McpCall call, String method, JsonObject params) {
    try {
      return protocol.answer(call, method, params);
    } catch (JsonRpc.Failure e) {
      return Future.failedFuture(e);
    }
  }

  /** A question's answer streams; the rest answer at once. */
  private static boolean streams(RoutingContext ctx, String method, JsonObject params) {
    String accept = ctx.request().getHeader("Accept");
    return "tools/call".equals(method) && "ask".equals(params.getValue("name")) && accept != null
        && accept.contains("text/event-stream");
  }

  private void notified(RoutingContext ctx, String method, JsonObject params) {
    if ("notifications/cancelled".equals(method)) {
      TokenUser caller = ctx.get(CALLER);
      McpCall call = running.get(caller.user().id() + "\n" + params.getValue("requestId"));
      if (call != null) {
        call.cancel();
      }
    }
    ctx.response().setStatusCode(202).end();
  }

  private static JsonObject error(Object id, Throwable e) {
    if (e instanceof JsonRpc.Failure f) {
      return JsonRpc.error(id, f.code, f.getMessage());
    }
    return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, HttpErrors.said(e, "MCP request").message());
  }

  private static JsonObject params(JsonObject message) {
    return message.getValue("params") instanceof JsonObject p ? p : new JsonObject();
  }

  private static Object progressToken(JsonObject params) {
    return params.getValue("_meta") instanceof JsonObject meta ? meta.getValue("progressToken") : null;
  }

  private static void refuse(RoutingContext ctx, int status, int code, String message) {
    HttpServerResponse response = ctx.response();
    if (status == 401) {
      response.putHeader("WWW-Authenticate", "Bearer realm=\"quarry\"");
    }
    Replies.json(ctx, status, JsonRpc.error(null, code, message));
  }
}
