package io.quarry.app;

import io.quarry.bus.StorageClient;
import io.quarry.storage.StorageVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code java -jar quarry.jar invite create [--config FILE]}: opens the database the configuration names
 * (SQLite's WAL lets it share the file with a running server), creates an unused invite and prints it.
 */
public final class InviteCommand {

  static final String USAGE = "usage: java -jar quarry.jar invite create [--config FILE]";

  private InviteCommand() {
  }

  public static Future<String> run(Map<String, String> env, String... argv) {
    if (argv.length < 2 || !"create".equals(argv[1])) {
      return Future.failedFuture(new IllegalArgumentException(USAGE));
    }
    Path config = Path.of("conf", "config.json");
    String[] rest = Arrays.copyOfRange(argv, 2, argv.length);
    if (rest.length == 2 && "--config".equals(rest[0])) {
      config = Path.of(rest[1]);
    } else if (rest.length != 0) {
      return Future.failedFuture(new IllegalArgumentException(USAGE));
    }
    JsonObject storage;
    try {
      storage = ConfigLoader.load(config, env).getJsonObject("storage");
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    Vertx vertx = Vertx.vertx();
    // The answer is handed over first and Vert.x closed after: completing through close() never returns.
    return vertx.deployVerticle(new StorageVerticle(), new DeploymentOptions().setConfig(storage))
        .compose(id -> new StorageClient(vertx).createInvite())
        .andThen(done -> vertx.close());
  }
}
