package io.quarry.app;

import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code java -jar quarry.jar invite create [--config FILE]}: creates an unused invite in the database the
 * configuration names and prints it.
 */
public final class InviteCommand {

  static final String USAGE = "usage: java -jar quarry.jar invite create [--config FILE]";

  private InviteCommand() {
  }

  public static Future<String> run(Map<String, String> env, String... argv) {
    if (argv.length < 2 || !"create".equals(argv[1])) {
      return Future.failedFuture(new IllegalArgumentException(USAGE));
    }
    Path config = StorageCommand.DEFAULT_CONFIG;
    String[] rest = Arrays.copyOfRange(argv, 2, argv.length);
    if (rest.length == 2 && "--config".equals(rest[0])) {
      config = Path.of(rest[1]);
    } else if (rest.length != 0) {
      return Future.failedFuture(new IllegalArgumentException(USAGE));
    }
    return StorageCommand.run(env, config, vertx -> new StorageClient(vertx).createInvite());
  }
}
