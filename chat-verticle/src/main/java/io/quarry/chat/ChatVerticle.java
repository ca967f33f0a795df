package io.quarry.chat;

import io.quarry.bus.Bus;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmOps;
import io.quarry.bus.NodeOps;
import io.quarry.bus.Shares;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge: REST API, static web UI, authentication. Config: {@code host}, {@code port},
 * {@code authMode}, {@code publicOrigins} (the names it answers to besides loopback), {@code maxBodyBytes}, the
 * connection limits ({@code maxConnections}, {@code headerTimeoutMs}, {@code idleTimeoutMs}), the sign-in
 * throttle ({@code auth*}, {@code trustProxy}), the pace of changes ({@code writesPerMinute}, {@code writeBurst}) and of
 * each API token's requests ({@code tokenRequestsPerMinute}, {@code tokenBurst}), password hashing ({@code passwordHashThreads} at once,
 * {@code passwordHashQueue} waiting at most), and {@code node} ({@code {id, version, roles}}) for health.
 */
public class ChatVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ChatVerticle.class);
  /** Local mode has no sign-in, which its operator should hear from the node itself, not only from the README. */
  static final String LOCAL_TRUST = "auth.mode=local has no sign-in: every account on this machine that can reach"
      + " {}:{} uses Quarry as its one person. On a machine others log in to, set QUARRY_AUTH_MODE=password";

  /** What the sign-in back-off and the tokens' pace measure time by: tests move it instead of waiting. */
  private final LongSupplier clock;
  /** Null when deployed with a JSON config instead (the module's tests). */
  private final ChatSettings given;
  private HttpServer server;
  private Passwords passwords;
  private WebJars webJars;
  private EventSocket socket;
  /** Each user's budget of changes, over HTTP and over the bus alike. */
  private WriteLimit writes;
  /** Each API token's pace of requests, at every door that takes tokens. */
  private TokenPace tokenPace;
  private ChatSettings settings;
  /** The REST API's OpenAPI document, read once at start. */
  private Buffer contract;
  /** The MCP tools as declared, read with the other resources off the event loop. */
  private McpToolList mcpTools;
  private Uploads uploads;
  /** How often a node deletes the uploads no dataset reads any more (deleted through another node or the bus). */
  private static final long UPLOAD_SWEEP_MS = 60_000;
  /** The routes, for the test that holds the OpenAPI document to them. */
  private Router router;

  public ChatVerticle() {
    this(System::currentTimeMillis);
  }

  ChatVerticle(LongSupplier clock) {
    this(clock, null);
  }

  ChatVerticle(ChatSettings settings) {
    this(System::currentTimeMillis, settings);
  }

  private ChatVerticle(LongSupplier clock, ChatSettings settings) {
    this.clock = clock;
    this.given = settings;
  }

  @Override
  public Future<?> start() {
    settings = given != null ? given : ChatSettings.from(config());
    tokenPace = new TokenPace(clock, settings.tokenPace().perMinute(), settings.tokenPace().burst());
    String host = settings.host();
    String mode = settings.authMode();
    if (!Auth.LOCAL.equals(mode) && !Auth.PASSWORD.equals(mode)) {
      return Future.failedFuture(new IllegalArgumentException("auth.mode must be 'local' or 'password', got '" + mode + "'"));
    }
    if (!List.of(Shares.ANYONE, Shares.USERS, Shares.OFF).contains(settings.shareAudience())) {
      return Future.failedFuture(new IllegalArgumentException("share.audience must be 'anyone', 'users' or 'off', got '"
          + settings.shareAudience() + "'"));
    }
    if (Auth.LOCAL.equals(mode) && !loopback(host)) {
      return Future.failedFuture(new IllegalArgumentException("auth.mode=local serves one person on one machine and"
          + " listens on loopback only: set QUARRY_HTTP_HOST=127.0.0.1, or QUARRY_AUTH_MODE=password to serve " + host));
    }
    // All blocking, side by side: the pages' libraries, the common passwords, and the password hasher (which, with
    // passwords, makes the hash an unknown email is checked against once started).
    Future<WebJars> assets = vertx.executeBlocking(WebJars::load, false);
    Future<CommonPasswords> common = vertx.executeBlocking(CommonPasswords::load, false);
    Future<Passwords> hasher = vertx.executeBlocking(() -> new Passwords(vertx, settings.passwordHashThreads(),
        settings.passwordHashQueue()), false);
    Future<Buffer> openapi = vertx.executeBlocking(OpenApiDoc::load, false);
    Future<McpToolList> tools = vertx.executeBlocking(McpToolList::load, false);
    uploads = new Uploads(vertx, settings.uploads(), this::uploadsBaseUrl);
    Future<Void> uploadsOpen = vertx.executeBlocking(uploads::open, false);
    return Future.all(List.of(assets, common, hasher, openapi, tools, uploadsOpen)).compose(ready -> {
      passwords = hasher.result();
      webJars = assets.result();
      if (Auth.PASSWORD.equals(mode)) {
        passwords.prepare();
      }
      contract = openapi.result();
      mcpTools = tools.result();
      return listen(common.result());
    });
  }

  private Future<HttpServer> listen(CommonPasswords common) {
    String host = settings.host();
    int port = settings.port();
    Connections connections = new Connections(vertx, settings.headerTimeoutMs(), settings.idleTimeoutMs(),
        settings.maxConnections());
    router = router(new StorageClient(vertx), common, connections);
    server = vertx.createHttpServer(serverOptions())
        .connectionHandler(connections::accept)
        .requestHandler(connections.guard(router));
    return server.listen(port, host)
        .recover(e -> Future.failedFuture(new IllegalStateException(
            "Cannot listen on " + host + ":" + port + ": " + e.getMessage(), e)))
        .onSuccess(s -> {
          log.info("Quarry listening on http://{}:{}/", host, s.actualPort());
          if (Auth.LOCAL.equals(settings.authMode())) {
            log.info(LOCAL_TRUST, host, s.actualPort());
          }
        })
        .compose(s -> bridge().map(s));
  }

  /** The event-bus bridge, when a port is configured for it. */
  private Future<Void> bridge() {
    ChatSettings.BridgeSettings bridge = settings.bridge();
    if (bridge.port() == 0) {
      return Future.succeededFuture();
    }
    return new Bridge(vertx, new Bus(vertx), bridge, tokenPace).listen(loopback(bridge.host())).mapEmpty();
  }

  private Router router(StorageClient storage, CommonPasswords common, Connections connections) {
    Router router = Router.router(vertx);
    writes = new WriteLimit(System::currentTimeMillis, settings.writesPerMinute(), settings.writeBurst());
    router.route().handler(connections::track);
    RequestIds.mount(router);
    String mode = settings.authMode();
    HostCheck hosts = new HostCheck(mode, settings.publicOrigins(), () -> server.actualPort());
    router.route().handler(hosts::handle);
    router.route().handler(new SecurityHeaders()::handle);
    LlmClient llm = new LlmClient(vertx);
    AtomicBoolean draining = new AtomicBoolean();
    new Bus(vertx).serveLocal(NodeOps.DRAINING, none -> {
      draining.set(true);
      return Future.succeededFuture();
    });
    HealthApi health = new HealthApi(new Bus(vertx), settings.node(), mode, llm, storage, draining,
        settings.followUps(), settings.shareAudience());
    requestChecks(router);
    OpenApiDoc.mount(router, contract);
    router.get("/api/health").handler(health::health);
    Routes.allowOnly(router, "/api/health", HttpMethod.GET);
    router.get("/api/health/live").handler(health::live);
    Routes.allowOnly(router, "/api/health/live", HttpMethod.GET);
    router.get("/api/health/ready").handler(health::ready);
    Routes.allowOnly(router, "/api/health/ready", HttpMethod.GET);
    Auth auth = new Auth(storage, mode);
    DatasetClient datasets = new DatasetClient(vertx, settings.timeouts());
    Boards boards = new Boards(new Bus(vertx), storage, datasets);
    // Before sign-in: a link for anyone opens without a session, and one for users asks for it itself.
    new SharedView(storage, auth::signedIn, settings.shareAudience(), boards).mountApi(router);
    accounts(router, storage, mode, common, auth);
    socket = new EventSocket(vertx, storage, settings.pingIntervalMs());
    // Paused so the upgrade can still happen after authentication, which may wait for storage.
    router.get("/ws").handler(ctx -> {
      ctx.request().pause();
      ctx.next();
    }).handler(auth::handle).handler(tokenPace::handle).handler(socket::handle);
    router.get("/api/health/nodes").handler(health::nodes);
    Routes.allowOnly(router, "/api/health/nodes", HttpMethod.GET);
    router.get("/api/me").handler(health::me);
    Routes.allowOnly(router, "/api/me", HttpMethod.GET);
    new ConversationApi(storage, uploads).mount(router);
    // Before the datasets' ":did" routes, whose 405 for POST would otherwise answer an upload.
    new UploadApi(uploads, datasets, storage).mount(router);
    vertx.setPeriodic(UPLOAD_SWEEP_MS, id -> uploads.sweepAll(storage));
    new DatasetApi(datasets, storage, uploads).mount(router);
    new ExportApi(vertx, datasets, storage, settings.exports()).mount(router);
    FollowUpQuestions followUps = new FollowUpQuestions(llm, settings.followUps());
    new MessageApi(llm, draining, followUps).mount(router);
    new TokenApi(storage).mount(router);
    Sharing sharing = new Sharing(storage, settings.shareAudience());
    new ShareApi(sharing).mount(router);
    new BoardApi(boards).mount(router);
    // The same operations for applications on the event bus.
    new BusApi(new Bus(vertx), storage, datasets, llm, mode, settings.exports(), draining, writes,
        settings.node(), sharing, boards, followUps).serve();
    Schedules schedules = new Schedules(new Bus(vertx), storage);
    new ScheduleApi(schedules).mount(router);
    new ScheduleBusApi(new Bus(vertx), schedules, writes).serve();
    mcp(router, storage);
    router.get("/api/samples").handler(new SampleApi(this::samplesBaseUrl)::list);
    router.get("/api/usage").handler(ctx -> Replies.send(ctx, 200, llm.usage(Auth.user(ctx).id()).map(LlmOps.Budget::toJson)));
    router.route("/api/*").failureHandler(HttpErrors::routerError);
    Webroot webroot = new Webroot(vertx);
    ConversationPages.mount(router, webroot);
    SharedView.mountPage(router, webroot);
    BoardPages.mount(router, webroot);
    router.route(WebJars.PREFIX + "*").handler(webJars::handle);
    router.route().handler(webroot::handle);
    for (int status : new int[] {400, 404, 405, 413, 500}) {
      router.errorHandler(status, HttpErrors::routerError);
    }
    return router;
  }

  /** The MCP server for agents, when enabled: its tools use the same public operations as the bus's clients. */
  private void mcp(Router router, StorageClient storage) {
    if (settings.mcp().enabled()) {
      Bus bus = new Bus(vertx);
      McpProtocol protocol = new McpProtocol(new McpTools(vertx, mcpTools, settings.mcp()), new McpResources(bus),
          settings.node());
      new McpEndpoint(vertx, storage, protocol, tokenPace, settings.maxBodyBytes()).mount(router);
    }
  }

  /**
   * What every API request passes first: the same origin and a body that is JSON. Its body waits unread
   * (paused) until the request is authenticated; only sign-up and sign-in read one before, and a small one.
   */
  private void requestChecks(Router router) {
    router.route("/api/*").handler(JsonBodies::holdUnread);
    router.route("/api/*").handler(Origins::check);
    router.route("/api/*").handler(ctx -> {
      if (UploadApi.isUpload(ctx)) {
        ctx.next();
      } else {
        JsonBodies.check(ctx);
      }
    });
    router.route("/api/auth/*").handler(BodyHandler.create(false).setBodyLimit(AuthApi.MAX_BODY_BYTES));
  }

  /**
   * A browser sends the WebSocket nothing but small pongs: a bigger frame is refused before it is read. A
   * connection silent for longer than any query may take is closed. No cleartext HTTP/2: while the server
   * waits to tell its preface from HTTP/1, a connection is nobody's, and no deadline or cap can see it.
   */
  private HttpServerOptions serverOptions() {
    return new HttpServerOptions()
        .setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) settings.idleTimeoutMs())
        .setIdleTimeoutUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
        .setMaxWebSocketFrameSize(EventSocket.MAX_INBOUND_BYTES)
        .setMaxWebSocketMessageSize(EventSocket.MAX_INBOUND_BYTES);
  }

  /** Sign-up, sign-in and sign-out, throttled; past them every API route needs a user, whose changes are paced. */
  private void accounts(Router router, StorageClient storage, String mode, CommonPasswords common, Auth auth) {
    Throttle throttle = new Throttle(clock, settings.signIn().forgetMs(), 100_000);
    SignInGuard guard = new SignInGuard(throttle, Devices.withRandomKey(), settings.signIn());
    new AuthApi(storage, mode, guard, passwords, common).mount(router);
    router.route("/api/*").handler(auth::handle);
    router.route("/api/*").handler(tokenPace::handle);
    router.route("/api/*").handler(Auth::scoped);
    router.route("/api/*").handler(writes::handle);
    BodyHandler bodies = BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes());
    // An upload's body is a file: streamed to disk by its handler, never buffered here.
    router.route("/api/*").handler(ctx -> {
      if (UploadApi.isUpload(ctx)) {
        ctx.next();
      } else {
        bodies.handle(ctx);
      }
    });
  }

  @Override
  public Future<?> stop() {
    if (socket != null) {
      socket.close();
    }
    return passwords == null ? Future.succeededFuture() : passwords.close();
  }

  private static boolean loopback(String host) {
    return host.startsWith("127.") || host.equals("localhost") || host.equals("::1") || host.equals("[::1]");
  }

  /** Where this server serves its users' uploads to workers, as the outbound policy trusts it. */
  private String uploadsBaseUrl() {
    String configured = settings.uploads().baseUrl();
    return configured.isBlank() ? "http://127.0.0.1:" + server.actualPort() + Uploads.PREFIX : configured;
  }

  /** Where this server's sample files are, as the outbound policy trusts them. */
  private String samplesBaseUrl() {
    String configured = settings.samplesBaseUrl();
    return configured.isBlank() ? "http://127.0.0.1:" + server.actualPort() + "/samples/" : configured;
  }

  /** How much password hashing this edge has done (tests compare the work of sign-in paths). */
  Passwords passwords() {
    return passwords;
  }

  /** Every route of the HTTP edge, as mounted (OpenApiRoutesTest compares them with the OpenAPI document). */
  List<Route> routes() {
    return router.getRoutes();
  }

  /** The port actually bound (useful when configured as 0). */
  public int port() {
    return server.actualPort();
  }
}
