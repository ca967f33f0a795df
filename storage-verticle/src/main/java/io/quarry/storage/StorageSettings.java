package io.quarry.storage;

import io.quarry.bus.Defaults;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;

/**
 * The {@code storage} section, over the defaults of {@code conf/config.json}; built by {@link #from} only.
 *
 * @param singletonWaitMs how long a starting storage role waits for the cluster-wide lock that makes it the only one
 * @param sessionPurgeMs how often expired sessions are deleted
 */
record StorageSettings(Path database, int poolSize, long sessionPurgeMs, long singletonWaitMs,
    int maxConversationsPerUser, int maxMessagesPerConversation, long maxResultBytesPerUser) {

  static StorageSettings from(JsonObject config) {
    JsonObject c = Defaults.section("storage", config);
    return new StorageSettings(Path.of(c.getString("dataDir")).toAbsolutePath().resolve(StorageVerticle.DATABASE_FILE),
        c.getInteger("poolSize"), c.getLong("sessionPurgeMs"), c.getLong("singletonWaitMs"),
        c.getInteger("maxConversationsPerUser"), c.getInteger("maxMessagesPerConversation"),
        c.getLong("maxResultBytesPerUser"));
  }
}
