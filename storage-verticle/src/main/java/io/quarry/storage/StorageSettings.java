package io.quarry.storage;

import io.quarry.bus.Defaults;
import io.quarry.bus.NodeInfo;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;

/**
 * The {@code storage} section, over the defaults of {@code conf/config.json}; built by {@link #of} (a node) or
 * {@link #from} (a verticle deployed with its config) only.
 *
 * @param dialect which database: SQLite ({@code database} is its file) or PostgreSQL ({@code postgres} says where)
 * @param singletonWaitMs how long a starting storage role waits for the cluster-wide lock that makes it the only one
 * @param sessionPurgeMs how often expired sessions are deleted
 */
public record StorageSettings(Dialect dialect, Path database, Postgres postgres, int poolSize, long sessionPurgeMs, long singletonWaitMs,
    int maxConversationsPerUser, int maxMessagesPerConversation, long maxResultBytesPerUser, int maxSharesPerUser) {

  /**
   * Where PostgreSQL is; its password comes from the environment only ({@code QUARRY_DATABASE_PASSWORD}), never
   * from a configuration file.
   */
  record Postgres(String host, int port, String database, String user, String password, boolean ssl) {

    static Postgres from(JsonObject c) {
      return new Postgres(c.getString("host"), c.getInteger("port"), c.getString("database"), c.getString("user"),
          System.getenv().getOrDefault("QUARRY_DATABASE_PASSWORD", ""), c.getBoolean("ssl"));
    }

    @Override
    public String toString() {
      return "postgresql://" + user + "@" + host + ":" + port + "/" + database + (ssl ? " (TLS)" : "");
    }
  }

  private static Dialect dialect(String backend) {
    return switch (backend) {
      case "sqlite" -> Dialect.SQLITE;
      case "postgres" -> Dialect.POSTGRES;
      default -> throw new IllegalArgumentException("storage.backend must be sqlite or postgres, not '" + backend + "'");
    };
  }

  /** From a node's whole configuration. */
  public static StorageSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "storage"));
  }

  static StorageSettings from(JsonObject config) {
    JsonObject c = Defaults.section("storage", config);
    return new StorageSettings(dialect(c.getString("backend")),
        Path.of(c.getString("dataDir")).toAbsolutePath().resolve(StorageVerticle.DATABASE_FILE), Postgres.from(c),
        c.getInteger("poolSize"), c.getLong("sessionPurgeMs"), c.getLong("singletonWaitMs"),
        c.getInteger("maxConversationsPerUser"), c.getInteger("maxMessagesPerConversation"),
        c.getLong("maxResultBytesPerUser"), c.getInteger("maxSharesPerUser"));
  }
}
