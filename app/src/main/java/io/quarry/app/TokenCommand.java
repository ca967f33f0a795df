package io.quarry.app;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.TokenScope;
import io.quarry.bus.StorageOps.TokenId;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code java -jar quarry.jar token create [--user EMAIL] [--scope read|query|chat] [--name NAME] [--expires-in-days N]
 * [--config FILE]}: an API token (of the event-bus bridge, the REST API, the WebSocket and MCP; {@code chat}, everything,
 * unless a narrower scope is named; never expiring unless given days) for the user of that email — in {@code
 * auth.mode=local}, with no email, for the local user — printed once (only its hash is kept), with the id to revoke it
 * by; {@code token list [--user EMAIL] [--config FILE]}: that user's tokens, a line each (id, scope, when made, last
 * used and expiring, whether active, expired or revoked and when, and its name);
 * {@code java -jar quarry.jar token revoke ID [--config FILE]}: the bridge refuses that token from then on, including on
 * connections it already signed in (they are asked again at their next request).
 */
final class TokenCommand {

  static final String USAGE = "usage: java -jar quarry.jar token create [--user EMAIL] [--scope read|query|chat]"
      + " [--name NAME] [--expires-in-days N] [--config FILE]\n"
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
        whose = whose(options.get("--user"), env, config, TokenScope.of(options.getOrDefault("--scope", "chat")),
            options.get("--name"), NewToken.expiresIn(days(options.get("--expires-in-days"))));
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
      if (options.containsKey("list")) {
        return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_LIST.call(new Bus(vertx), whose))
            .map(TokenCommand::listed);
      }
      return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_CREATE.call(new Bus(vertx), whose))
          .map(token -> "token " + token.token() + "\nid " + token.id() + "\nscope " + whose.scope().label()
              + "\nexpires " + (whose.expiresAt() == null ? "never" : whose.expiresAt())
              + (whose.name() == null ? "" : "\nname " + whose.name().strip())
              + "\nThe token is shown this once: only its hash is kept.");
    }
    return StorageCommand.run(env, config, vertx -> StorageOps.TOKEN_REVOKE.call(new Bus(vertx),
            new TokenId(options.get("id"))))
        .map(v -> "revoked " + options.get("id"));
  }

  private static String listed(List<TokenInfo> tokens) {
    if (tokens.isEmpty()) {
      return "no tokens";
    }
    String now = Timestamps.now();
    return String.join("\n", tokens.stream().map(t -> t.id() + " " + t.scope().label() + " created " + t.createdAt()
        + " last used " + orNever(t.lastUsedAt()) + " expires " + orNever(t.expiresAt()) + " " + t.status(now)
        + (t.revokedAt() == null ? "" : " " + t.revokedAt()) + (t.name() == null ? "" : " name " + t.name()))
        .toList());
  }

  private static String orNever(String at) {
    return at == null ? "never" : at;
  }

  /** {@code --expires-in-days}: a whole number, or null when not given (never expires). */
  private static Integer days(String days) {
    if (days == null) {
      return null;
    }
    try {
      return Integer.valueOf(days);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--expires-in-days takes a whole number of days, 1 to " + NewToken.MAX_DAYS);
    }
  }

  /** The user of {@code email}; with none, the local user, which only {@code auth.mode=local} has. */
  private static NewToken whose(String email, Map<String, String> env, Path config, TokenScope scope, String name,
      String expiresAt) {
    if (email != null) {
      return new NewToken(email, null, scope, name, expiresAt);
    }
    String mode = ConfigLoader.load(config, env).getJsonObject("chat").getString("authMode", "local");
    if (!"local".equals(mode)) {
      throw new IllegalArgumentException(WHOSE);
    }
    return new NewToken(null, null, scope, name, expiresAt);
  }

  /** Flags each verb takes, each followed by its value. */
  private static final Map<String, Set<String>> FLAGS = Map.of("create", Set.of("--user", "--scope", "--name",
      "--expires-in-days", "--config"),
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
