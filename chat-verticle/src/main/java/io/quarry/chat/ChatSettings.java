package io.quarry.chat;

import io.quarry.bus.Defaults;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryTimeouts;
import io.vertx.core.json.JsonObject;

/**
 * The {@code chat} section, over the defaults of {@code conf/config.json}; built by {@link #of} (a node) or
 * {@link #from} (a verticle deployed with its config) only.
 *
 * @param publicOrigins the names the server answers to besides loopback
 * @param node this node, for health
 * @param idleTimeoutMs how long a quiet connection stays open: at least as configured, and longer than any query
 * @param shareAudience the ceiling of share links' audience ({@code share.audience}): anyone, users or off
 */
public record ChatSettings(String host, int port, String authMode, String publicOrigins, NodeInfo node, int maxBodyBytes,
    String samplesBaseUrl, long pingIntervalMs, int maxConnections, long headerTimeoutMs, long idleTimeoutMs,
    int writesPerMinute, int writeBurst, TokenPaceSettings tokenPace, int passwordHashThreads, int passwordHashQueue,
    SignIn signIn, QueryTimeouts timeouts, Exports exports, BridgeSettings bridge, McpSettings mcp,
    UploadSettings uploads, String shareAudience, FollowUpSource followUps) {

  /**
   * Who writes the next questions offered after an answer: the page, from the schema and the result ({@code schema},
   * no model call), or the model ({@code model}, one small request counted in the user's budget).
   */
  enum FollowUpSource {
    SCHEMA, MODEL;

    static FollowUpSource of(String value) {
      return switch (value) {
        case "schema" -> SCHEMA;
        case "model" -> MODEL;
        default -> throw new IllegalArgumentException("chat.followUps must be 'schema' or 'model', got '" + value + "'");
      };
    }

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * Files users upload ({@link UploadApi}): kept under {@code dataDir}/uploads, served to workers under {@code baseUrl}.
   *
   * @param baseUrl where this node serves them, as the workers' address policy trusts it; blank: loopback, this port
   * @param maxBytes one file's limit ({@code dataset.uploadMaxBytes}); {@code userBytes} what one user's uploads may
   *     hold on this node together ({@code dataset.userUploadBytes})
   */
  record UploadSettings(String baseUrl, java.nio.file.Path dir, long maxBytes, long userBytes, int maxDatasets) {
  }

  /**
   * The event-bus bridge ({@link Bridge}): off when {@code port} is 0; TLS when a certificate and key are named (PEM),
   * which it must be off loopback.
   *
   * @param maxConnections signed-in connections on this node; {@code maxWaiting} more may be signing in
   * @param maxFrameMemory what unfinished frames may hold together on this node, and of one user's connections
   *     {@code maxFrameMemoryPerUser}
   * @param frameTimeoutMs how long a connection may hold an unfinished frame without finishing one
   */
  record BridgeSettings(String host, int port, int maxConnections, int maxConnectionsPerUser, int maxWaiting,
      long maxFrameMemory, long maxFrameMemoryPerUser, long frameTimeoutMs, String certFile, String keyFile) {
    boolean tls() {
      return !certFile.isBlank() && !keyFile.isBlank();
    }
  }

  /** Each API token's requests ({@link TokenPace}): {@code burst} at once, then {@code perMinute}. */
  record TokenPaceSettings(int perMinute, int burst) {
  }

  /**
   * How large a result's download may be, how many one user may have in progress on this node, and how slow one may
   * be (the {@code export} section, which a node hands its web role).
   *
   * @param minBytesPerSecond a download that takes less over {@code slowWindowMs} is ended and its file deleted
   */
  record Exports(long maxRows, long maxBytes, int maxConcurrentPerUser, long minBytesPerSecond, long slowWindowMs) {
  }

  /**
   * The sign-in throttle: per account a short back-off, per client address a long one.
   *
   * @param forgetMs how long a failure is remembered
   * @param trustProxy whether the client address comes from {@code X-Forwarded-For}
   */
  record SignIn(Throttle.Rule account, Throttle.Rule address, long forgetMs, boolean trustProxy) {
  }

  /**
   * The MCP server at {@code /mcp} (the {@code mcp} section, which a node hands its web role): off unless enabled.
   * {@code run_sql} answers {@code defaultRows} rows unless asked for up to {@code maxRows}, and no more than
   * {@code maxChars} characters of them.
   */
  record McpSettings(boolean enabled, int defaultRows, int maxRows, int maxChars) {
  }

  private static UploadSettings uploads(JsonObject chat, JsonObject config) {
    JsonObject d = Defaults.section("dataset", config == null ? null : config.getJsonObject("dataset"));
    return new UploadSettings(chat.getString("uploadsBaseUrl"),
        java.nio.file.Path.of(chat.getString("dataDir")).toAbsolutePath().resolve("uploads"), d.getLong("uploadMaxBytes"),
        d.getLong("userUploadBytes"), d.getInteger("maxDatasets"));
  }

  private static McpSettings mcp(JsonObject config) {
    JsonObject m = Defaults.section("mcp", config == null ? null : config.getJsonObject("mcp"));
    return new McpSettings(m.getBoolean("enabled"), m.getInteger("defaultRows"), m.getInteger("maxRows"),
        m.getInteger("maxChars"));
  }

  private static Exports exports(JsonObject config) {
    JsonObject e = Defaults.section("export", config == null ? null : config.getJsonObject("export"));
    return new Exports(e.getLong("maxRows"), e.getLong("maxBytes"), e.getInteger("maxConcurrentPerUser"),
        e.getLong("minBytesPerSecond"), e.getLong("slowWindowMs"));
  }

  /**
   * From a node's whole configuration: the web role also reads its {@code export}, {@code mcp} and {@code share}
   * sections, and the upload limits of {@code dataset}.
   */
  public static ChatSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "chat").put("export", nodeConfig.getJsonObject("export").copy())
        .put("mcp", nodeConfig.getJsonObject("mcp").copy())
        .put("dataset", nodeConfig.getJsonObject("dataset").copy())
        .put("share", nodeConfig.getJsonObject("share").copy()));
  }

  static ChatSettings from(JsonObject config) {
    JsonObject c = Defaults.section("chat", config);
    QueryTimeouts timeouts = QueryTimeouts.from(c);
    long base = c.getLong("authBackoffBaseMs");
    SignIn signIn = new SignIn(
        new Throttle.Rule(c.getInteger("authAccountFreeFailures"), base, c.getLong("authAccountMaxBackoffMs")),
        new Throttle.Rule(c.getInteger("authAddressFreeFailures"), base, c.getLong("authAddressMaxBackoffMs")),
        c.getLong("authFailuresForgetMs"), c.getBoolean("trustProxy"));
    return new ChatSettings(c.getString("host"), c.getInteger("port"), c.getString("authMode"),
        c.getString("publicOrigins"), NodeInfo.of(c), c.getInteger("maxBodyBytes"),
        c.getString("samplesBaseUrl"), c.getLong("pingIntervalMs"), c.getInteger("maxConnections"),
        c.getLong("headerTimeoutMs"), timeouts.connectionIdleMs(c.getLong("idleTimeoutMs")),
        c.getInteger("writesPerMinute"), c.getInteger("writeBurst"),
        new TokenPaceSettings(c.getInteger("tokenRequestsPerMinute"), c.getInteger("tokenBurst")),
        c.getInteger("passwordHashThreads"),
        c.getInteger("passwordHashQueue"), signIn, timeouts, exports(config), new BridgeSettings(
            c.getString("bridgeHost"), c.getInteger("bridgePort"), c.getInteger("bridgeMaxConnections"),
            c.getInteger("bridgeMaxConnectionsPerUser"), c.getInteger("bridgeMaxWaiting"),
            c.getLong("bridgeMaxFrameMemory"), c.getLong("bridgeMaxFrameMemoryPerUser"), c.getLong("bridgeFrameTimeoutMs"),
            c.getString("bridgeCertFile"), c.getString("bridgeKeyFile")), mcp(config), uploads(c, config),
        Defaults.section("share", config == null ? null : config.getJsonObject("share")).getString("audience"),
        FollowUpSource.of(c.getString("followUps")));
  }
}
