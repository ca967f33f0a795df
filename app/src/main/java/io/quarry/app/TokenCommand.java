package io.quarry.app;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.StorageOps.TokenId;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar quarry.jar token create [--user EMAIL] [--config FILE]}: an API token of the event-bus bridge for the
 * user of that email — in {@code auth.mode=local}, with no email, for the local user — printed once (only its hash is
 * kept), with the id to revoke it by; {@code token list [--user EMAIL] [--config FILE]}: that user's tokens, a line
 * each (id, when made, and when revoked or "active");
 * {@code java -jar quarry.jar token revoke ID [--config FILE]}: the bridge refuses that token from then on, including on
 * connections it already signed in (they are asked again at their next request).
 */
final class TokenCommand {

  static final String USAGE = "usage: java -jar quarry.jar token create [--user EMAIL] [--config FILE]\n"
      + "       java -jar quarry.jar token list [--user EMAIL] [--config FILE]\n"
      + "       java -jar quarry.jar token revoke ID [--config FILE]";
  static final String WHOSE = "This server's users sign in with passwords (auth.mode=password): name the token's user,"
      + " token create --user EMAIL";

  private TokenCommand() {
  }

  static Future<String> run(Map<String, String> env, String... argv) {
    Map<String, String> options;
    try {
      options = options(argv);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    Path config = options.containsKey("--config") ? Path.of(options.get("--config")) : StorageCommand.DEFAULT_CONFIG;
    if (options.containsKey("create") || options.containsKey("list")) {
      NewToken whose;
      try {
        whose = whose(options.get("--user"), env, config);
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
      if (options.containsKey("list")) {
        return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_LIST.call(new Bus(vertx), whose))
            .map(TokenCommand::listed);
      }
      return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_CREATE.call(new Bus(vertx), whose))
          .map(token -> "token " + token.token() + "\nid " + token.id());
    }
    return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_REVOKE.call(new Bus(vertx),
            new TokenId(options.get("id"))))
        .map(v -> "revoked " + options.get("id"));
  }

  private static String listed(List<TokenInfo> tokens) {
    if (tokens.isEmpty()) {
      return "no tokens";
    }
    return String.join("\n", tokens.stream().map(t -> t.id() + " created " + t.createdAt()
        + (t.revokedAt() == null ? " active" : " revoked " + t.revokedAt())).toList());
  }

  /** The user of {@code email}; with none, the local user, which only {@code auth.mode=local} has. */
  private static NewToken whose(String email, Map<String, String> env, Path config) {
    if (email != null) {
      return new NewToken(email);
    }
    String mode = ConfigLoader.load(config, env).getJsonObject("chat").getString("authMode", "local");
    if (!"local".equals(mode)) {
      throw new IllegalArgumentException(WHOSE);
    }
    return NewToken.local();
  }

  /** {@code create [--user X]}, {@code list [--user X]} or {@code revoke ID}, either with {@code --config F}. */
  private static Map<String, String> options(String... argv) {
    java.util.HashMap<String, String> options = new java.util.HashMap<>();
    if (argv.length < 2) {
      throw new IllegalArgumentException(USAGE);
    }
    int next = 2;
    if ("create".equals(argv[1]) || "list".equals(argv[1])) {
      options.put(argv[1], "");
      if (argv.length > 3 && "--user".equals(argv[2])) {
        options.put("--user", argv[3]);
        next = 4;
      }
    } else if ("revoke".equals(argv[1]) && argv.length > 2 && !argv[2].startsWith("--")) {
      options.put("id", argv[2]);
      next = 3;
    } else {
      throw new IllegalArgumentException(USAGE);
    }
    if (argv.length == next + 2 && "--config".equals(argv[next])) {
      options.put("--config", argv[next + 1]);
    } else if (argv.length != next) {
      throw new IllegalArgumentException(USAGE);
    }
    return options;
  }
}
