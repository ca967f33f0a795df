package io.quarry.app;

import io.quarry.bus.Defaults;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Configuration in three layers: built-in defaults (the shipped {@code conf/config.json}), then the
 * operator's {@code conf/config.json}, then environment variables. One section per verticle.
 *
 * <p>Every setting {@code section.key} can be set by {@code QUARRY_SECTION_KEY} (camelCase becomes
 * UPPER_SNAKE, e.g. {@code worker.revalidateWaitMs} by {@code QUARRY_WORKER_REVALIDATE_WAIT_MS}); the
 * documented names of {@link #NAMED} take precedence. Secrets come from the environment only.
 */
final class ConfigLoader {

  /** The fixed names operators and scripts rely on (SPEC §2), each setting one or more keys. */
  static final Map<String, List<String>> NAMED = Map.ofEntries(
      Map.entry("GEMINI_API_KEY", List.of("llm.apiKey")),
      Map.entry("GEMINI_BASE_URL", List.of("llm.baseUrl")),
      Map.entry("QUARRY_MODEL", List.of("llm.model", "llm.openaiModel")),
      Map.entry("QUARRY_LLM_PROVIDER", List.of("llm.provider")),
      Map.entry("OPENAI_API_KEY", List.of("llm.openaiApiKey")),
      Map.entry("OPENAI_BASE_URL", List.of("llm.openaiBaseUrl")),
      Map.entry("QUARRY_HTTP_HOST", List.of("chat.host")),
      Map.entry("QUARRY_HTTP_PORT", List.of("chat.port")),
      Map.entry("QUARRY_DATA_DIR", List.of("storage.dataDir", "worker.dataDir", "chat.dataDir")),
      Map.entry("QUARRY_AUTH_MODE", List.of("chat.authMode")),
      Map.entry("QUARRY_BRIDGE_HOST", List.of("chat.bridgeHost")),
      Map.entry("QUARRY_BRIDGE_PORT", List.of("chat.bridgePort")),
      Map.entry("QUARRY_BRIDGE_CERT_FILE", List.of("chat.bridgeCertFile")),
      Map.entry("QUARRY_BRIDGE_KEY_FILE", List.of("chat.bridgeKeyFile")),
      Map.entry("QUARRY_ALLOW_PRIVATE_NETWORKS", List.of("dataset.allowPrivateNetworks", "worker.allowPrivateNetworks")),
      Map.entry("QUARRY_ORIGIN_CA_FILE", List.of("dataset.originCaFile", "worker.originCaFile")),
      Map.entry("QUARRY_QUERY_TIMEOUT_MS", List.of("query.timeoutMs")),
      Map.entry("QUARRY_TOKEN_LIMIT", List.of("llm.tokenLimit")),
      Map.entry("QUARRY_CLUSTER_NAME", List.of("cluster.name")),
      Map.entry("QUARRY_CLUSTER_HOST", List.of("cluster.host")),
      Map.entry("QUARRY_CLUSTER_MEMBERS", List.of("cluster.members")),
      Map.entry("QUARRY_LOCAL_WORKERS", List.of("localWorkers.count")));

  /**
   * Settings that moved, by their old names, which keep working in a file and (as {@code QUARRY_WORKER_QUERY_TIMEOUT_MS},
   * the README's example) in the environment: the query timeout sat in four sections before it was one.
   */
  static final Map<String, String> MOVED = Map.of(
      "chat.queryTimeoutMs", "query.timeoutMs",
      "dataset.queryTimeoutMs", "query.timeoutMs",
      "worker.queryTimeoutMs", "query.timeoutMs",
      "llm.queryTimeoutMs", "query.timeoutMs");

  /** Settings that exist only through the environment: secrets never sit in a file. */
  static final Map<String, String> SECRETS = Map.of("llm.apiKey", "GEMINI_API_KEY",
      "llm.openaiApiKey", "OPENAI_API_KEY");

  private ConfigLoader() {
  }

  static JsonObject load(Path file, Map<String, String> env) {
    return load(file, env, true);
  }

  /**
   * {@code servesSamples}: whether this process serves HTTP, and so the sample files; a process that does not
   * (a worker process, a worker-only node) trusts only the prefixes its configuration names, such as those its
   * node handed it, not its own default port's.
   */
  static JsonObject load(Path file, Map<String, String> env, boolean servesSamples) {
    JsonObject config = defaults();
    if (Files.exists(file)) {
      overlay(config, read(file), file);
    }
    applyEnvironment(config, env);
    return servesSamples ? selfServedSamples(config) : config;
  }

  /**
   * The sample datasets this server serves under {@code /samples/}, and the files its users upload, served under
   * {@code /uploads/}, must pass the outbound address policy: their exact URL prefix (an IP literal) is trusted by the
   * dataset and worker roles, and the UI offers the same URLs.
   */
  static JsonObject selfServedSamples(JsonObject config) {
    JsonObject chat = config.getJsonObject("chat");
    long port = chat.getLong("port", 0L);
    if (port == 0) {
      return config;
    }
    String host = chat.getString("host", "127.0.0.1");
    String self = host.equals("0.0.0.0") || host.equals("::") || host.equals("localhost") ? "127.0.0.1"
        : host.contains(":") ? "[" + host + "]" : host;
    for (String kind : new String[] {"samples", "uploads"}) {
      String key = kind + "BaseUrl";
      if (chat.getString(key, "").isBlank()) {
        String base = "http://" + self + ":" + port + "/" + kind + "/";
        chat.put(key, base);
        trust(config, base);
      }
    }
    return config;
  }

  private static void trust(JsonObject config, String base) {
    for (String section : new String[] {"dataset", "worker"}) {
      JsonObject values = config.getJsonObject(section);
      String trusted = values.getString("trustedUrlPrefixes", "");
      values.put("trustedUrlPrefixes", trusted.isBlank() ? base : trusted + "," + base);
    }
  }

  static JsonObject defaults() {
    return Defaults.all();
  }

  private static JsonObject read(Path file) {
    try {
      return new JsonObject(Files.readString(file));
    } catch (DecodeException e) {
      throw new ConfigException("Invalid JSON in " + file + ": " + firstLine(e.getMessage()));
    } catch (ClassCastException e) {
      throw new ConfigException("Invalid configuration in " + file + ": the top level must be a JSON object");
    } catch (IOException e) {
      throw new ConfigException("Cannot read " + file + ": " + e.getMessage());
    }
  }

  private static void overlay(JsonObject config, JsonObject overrides, Path file) {
    for (String section : overrides.fieldNames()) {
      if (!(config.getValue(section) instanceof JsonObject target)) {
        throw new ConfigException("Unknown section '" + section + "' in " + file + "; sections are "
            + String.join(", ", config.fieldNames()));
      }
      if (!(overrides.getValue(section) instanceof JsonObject values)) {
        throw new ConfigException("Section '" + section + "' in " + file + " must be a JSON object");
      }
      for (String key : values.fieldNames()) {
        String path = section + "." + key;
        if (SECRETS.containsKey(path)) {
          throw new ConfigException("'" + path + "' must not be in " + file + ": set " + SECRETS.get(path)
              + " in the environment instead");
        }
        if (MOVED.containsKey(path)) {
          Object value = values.getValue(key);
          update(config, MOVED.get(path), current -> checked(MOVED.get(path), current, value, file.toString()));
        } else if (!target.containsKey(key)) {
          throw new ConfigException("Unknown setting '" + path + "' in " + file);
        } else {
          target.put(key, checked(path, target.getValue(key), values.getValue(key), file.toString()));
        }
      }
    }
  }

  /** Replaces setting {@code section.key} by what {@code value} makes of its current value. */
  private static void update(JsonObject config, String path, UnaryOperator<Object> value) {
    String[] parts = path.split("\\.");
    JsonObject section = config.getJsonObject(parts[0]);
    section.put(parts[1], value.apply(section.getValue(parts[1], "")));
  }

  private static Object checked(String path, Object current, Object value, String source) {
    boolean ok = current instanceof Number ? value instanceof Number
        : current instanceof Boolean ? value instanceof Boolean
        : value instanceof String;
    if (!ok) {
      throw new ConfigException("'" + path + "' in " + source + " must be " + kind(current) + ", got " + value);
    }
    return value;
  }

  private static void applyEnvironment(JsonObject config, Map<String, String> env) {
    for (String section : config.fieldNames()) {
      JsonObject values = config.getJsonObject(section);
      for (String key : List.copyOf(values.fieldNames())) {
        String name = envName(section + "." + key);
        if (env.containsKey(name)) {
          values.put(key, parse(name, values.getValue(key), env.get(name)));
        }
      }
    }
    MOVED.forEach((old, path) -> {
      String name = envName(old);
      if (env.containsKey(name)) {
        update(config, path, current -> parse(name, current, env.get(name)));
      }
    });
    NAMED.forEach((name, paths) -> {
      if (env.containsKey(name)) {
        paths.forEach(path -> update(config, path, current -> parse(name, current, env.get(name))));
      }
    });
  }

  /** {@code worker.queryTimeoutMs} is set by {@code QUARRY_WORKER_QUERY_TIMEOUT_MS}. */
  static String envName(String path) {
    String[] parts = path.split("\\.");
    return "QUARRY_" + snake(parts[0]) + "_" + snake(parts[1]);
  }

  private static Object parse(String name, Object current, String text) {
    try {
      if (current instanceof Number) {
        return Long.parseLong(text.strip());
      }
    } catch (NumberFormatException e) {
      throw new ConfigException(name + " must be a whole number, got '" + text + "'");
    }
    if (current instanceof Boolean) {
      if (!text.strip().equalsIgnoreCase("true") && !text.strip().equalsIgnoreCase("false")) {
        throw new ConfigException(name + " must be true or false, got '" + text + "'");
      }
      return Boolean.parseBoolean(text.strip());
    }
    return text;
  }

  private static String kind(Object current) {
    return current instanceof Number ? "a number" : current instanceof Boolean ? "true or false" : "a string";
  }

  static String snake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase();
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }

  /** A configuration the node cannot start with; its message is the one line the operator reads. */
  static final class ConfigException extends RuntimeException {
    ConfigException(String message) {
      super(message, null, false, false);
    }
  }
}
