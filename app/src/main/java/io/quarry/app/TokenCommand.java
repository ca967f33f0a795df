package io.quarry.app;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.TokenScope;
import io.quarry.bus.StorageOps.TokenId;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code java -jar quarry.jar token create [--user EMAIL] [--scope read|query|chat] [--config FILE]}: an API token (of
 * the event-bus bridge and the REST API; {@code chat}, everything, unless a narrower scope is named) for the
 * user of that email — in {@code auth.mode=local}, with no email, for the local user — printed once (only its hash is
 * kept), with the id to revoke it by; {@code token list [--user EMAIL] [--config FILE]}: that user's tokens, a line
 * each (id, when made, and when revoked or "active");
 * {@code java -jar quarry.jar token revoke ID [--config FILE]}: the bridge refuses that token from then on, including on
 * connections it already signed in (they are asked again at their next request).
 */
final class TokenCommand {

  static final String USAGE = "usage: java -jar quarry.jar token create [--user EMAIL] [--scope read|query|chat]"
      + " [--config FILE]\n"
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
        whose = whose(options.get("--user"), env, config, TokenScope.of(options.getOrDefault("--scope", "chat")));
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
      if (options.containsKey("list")) {
        return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_LIST.call(new Bus(vertx), whose))
            .map(TokenCommand::listed);
      }
      return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_CREATE.call(new Bus(vertx), whose))
          .map(token -> "token " + token.token() + "\nid " + token.id() + "\nscope " + whose.scope().label());
    }
    return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_REVOKE.call(new Bus(vertx),
            new TokenId(options.get("id"))))
        .map(v -> "revoked " + options.get("id"));
  }

  private static String listed(List<TokenInfo> tokens) {
    if (tokens.isEmpty()) {
      return "no tokens";
    }
    return String.join("\n", tokens.stream().map(t -> t.id() + " " + t.scope().label() + " created " + t.createdAt()
        + (t.revokedAt() == null ? " active" : " revoked " + t.revokedAt())).toList());
  }

  /** The user of {@code email}; with none, the local user, which only {@code auth.mode=local} has. */
  private static NewToken whose(String email, Map<String, String> env, Path config, TokenScope scope) {
    if (email != null) {
      return new NewToken(email, scope);
    }
    String mode = ConfigLoader.load(config, env).getJsonObject("chat").getString("authMode", "local");
    if (!"local".equals(mode)) {
      throw new IllegalArgumentException(WHOSE);
    }
    return new NewToken(null, scope);
  }

  /** Flags each verb takes, each followed by its value. */
  private static final Map<String, Set<String>> FLAGS = Map.of("create", Set.of("--user", "--scope", "--config"),
      "list", Set.of("--user", "--config"), "revoke", Set.of("--config"));

  /** The verb (under its own name), {@code revoke}'s id (as "id"), and the flags with their values. */
  private static Map<String, String> options(String... argv) {
    Map<String, String> options = new HashMap<>();
    if (argv.length < 2 || !FLAGS.containsKey(argv[1])) {
      throw new IllegalArgumentException(USAGE);
    }
    options.put(argv[1], "");
    int next = 2;
    if (argv[1].equals("revoke")) {
      if (argv.length < 3 || argv[2].startsWith("--")) {
        throw new IllegalArgumentException(USAGE);
      }
      options.put("id", argv[2]);
      next = 3;
    }
    for (; next < argv.length; next += 2) {
      if (!FLAGS.get(argv[1]).contains(argv[next]) || next + 1 >= argv.length || options.containsKey(argv[next])) {
        throw new IllegalArgumentException(USAGE);
      }
      options.put(argv[next], argv[next + 1]);
    }
    return options;
  }
}
