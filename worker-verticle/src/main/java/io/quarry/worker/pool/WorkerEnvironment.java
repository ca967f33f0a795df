package io.quarry.worker.pool;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a worker process is given of its node's environment and {@code -D} settings. A worker runs users' SQL, so it
 * gets a list of variables it needs, not the node's environment less the names known to be secret: a model's key, a
 * database's password or a cloud's token never reaches it, whatever the operator called it. Its configuration file
 * says everything else.
 */
final class WorkerEnvironment {

  /**
   * What the JVM, the C library and DuckDB read: the search path (the memory cap's shell), the home (DuckDB's), the
   * locale (Java's default charset and file-name encoding) and the time zone (Java's and DuckDB's). The logging
   * configuration reads the two QUARRY_LOG_ settings, so a worker logs as its node does. Not kept: JAVA_HOME (the
   * worker's java is named by its full path), USER/LOGNAME (Java reads the account from the system), TMPDIR (Java's
   * and DuckDB's temporary directories are set explicitly), JAVA_TOOL_OPTIONS and the like (the node's {@code -D}
   * settings are forwarded on the command line, filtered).
   */
  private static final Set<String> KEPT = Set.of("PATH", "HOME", "LANG", "TZ", "QUARRY_LOG_FORMAT",
      "QUARRY_LOG_LEVEL");

  /** A {@code -D} name that may hold a secret or the node's own identity (its key store): not forwarded. */
  private static final Pattern SECRET_NAME = Pattern.compile("(?i)pass|pwd|secret|token|cred|key|auth");

  private WorkerEnvironment() {
  }

  /** A worker's environment, from its node's: the variables it needs, and two malloc arenas (its native memory). */
  static Map<String, String> variables(Map<String, String> node) {
    Map<String, String> kept = new HashMap<>();
    node.forEach((name, value) -> {
      if (KEPT.contains(name) || name.startsWith("LC_")) {
        kept.put(name, value);
      }
    });
    // Fewer arenas than glibc's default also run DuckDB faster here: eight made the load bench's queries 7× slower.
    kept.put("MALLOC_ARENA_MAX", "2");
    return kept;
  }

  /**
   * The node's own {@code -D} settings (logging, name resolution, TLS trust, Vert.x options) hold for its workers too,
   * but for those whose name says password, secret, token, credential, key or auth: a worker needs no password of the
   * node, nor its key store. Filtered by name rather than listed: an operator's {@code -D} settings are chosen for the
   * JVM's behaviour (networking, TLS, DNS), which a worker must share to fetch as its node does.
   */
  static List<String> properties(List<String> jvmArguments) {
    return jvmArguments.stream()
        .filter(a -> a.startsWith("-D") && !SECRET_NAME.matcher(name(a)).find())
        .toList();
  }

  private static String name(String property) {
    int equals = property.indexOf('=');
    return equals < 0 ? property.substring(2) : property.substring(2, equals);
  }
}
