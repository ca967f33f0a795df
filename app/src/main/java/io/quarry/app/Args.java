package io.quarry.app;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * Command line: {@code [--roles web,llm,dataset,storage,worker] [--cluster] [--config FILE] [--local-workers N]}.
 *
 * @param localWorkers worker processes this node supervises, or -1 for the configured number
 * @param supervisor set only on a worker process a node started: {@code supervisorId/workerId}
 */
record Args(Set<Role> roles, boolean cluster, Path config, int localWorkers, String supervisor) {

  static final String USAGE = "usage: java -jar quarry.jar [--roles " + Role.all()
      + "] [--cluster] [--config FILE] [--local-workers N]";

  static Args parse(String... argv) {
    Set<Role> roles = EnumSet.allOf(Role.class);
    boolean cluster = false;
    Path config = Path.of("conf", "config.json");
    int localWorkers = -1;
    String supervisor = null;
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--roles" -> roles = Role.parse(value(argv, ++i, "--roles"));
        case "--cluster" -> cluster = true;
        case "--config" -> config = Path.of(value(argv, ++i, "--config"));
        case "--local-workers" -> localWorkers = count(value(argv, ++i, "--local-workers"));
        case "--supervisor" -> supervisor = value(argv, ++i, "--supervisor");
        default -> throw new IllegalArgumentException("Unknown option '" + argv[i] + "'; " + USAGE);
      }
    }
    return new Args(roles, cluster, config, localWorkers, supervisor);
  }

  private static String value(String[] argv, int i, String option) {
    if (i >= argv.length || argv[i].startsWith("--")) {
      throw new IllegalArgumentException(option + " needs a value; " + USAGE);
    }
    return argv[i];
  }

  private static int count(String text) {
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 0 && n <= io.quarry.worker.pool.LocalWorkersConfig.MAX_COUNT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below with the accepted range.
    }
    throw new IllegalArgumentException("--local-workers must be a whole number from 0 to "
        + io.quarry.worker.pool.LocalWorkersConfig.MAX_COUNT + ", got '" + text + "'");
  }
}
