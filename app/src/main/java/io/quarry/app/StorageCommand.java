package io.quarry.app;

import io.quarry.storage.StorageVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * An operator's command over the database the configuration names ({@code invite}, {@code token}): a storage verticle of
 * its own (SQLite's WAL lets it share the file with a running server; PostgreSQL is shared anyway), one piece of work,
 * then closed.
 */
final class StorageCommand {

  static final Path DEFAULT_CONFIG = Path.of("conf", "config.json");

  private StorageCommand() {
  }

  static <T> Future<T> run(Map<String, String> env, Path config, Function<Vertx, Future<T>> work) {
    JsonObject storage;
    try {
      storage = ConfigLoader.load(config, env).getJsonObject("storage");
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    Vertx vertx = Vertx.vertx(new VertxOptions().setFileSystemOptions(Launcher.files()));
    // The answer is handed over first and Vert.x closed after: completing through close() never returns.
    return vertx.deployVerticle(new StorageVerticle(), new DeploymentOptions().setConfig(storage))
        .compose(id -> work.apply(vertx))
        .andThen(done -> vertx.close());
  }
}
