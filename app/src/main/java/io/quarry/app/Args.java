package io.quarry.app;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** Command line: {@code [--roles web,llm,dataset,storage,worker] [--cluster] [--config conf/config.json]}. */
record Args(Set<Role> roles, boolean cluster, Path config) {

  static final String USAGE = "usage: java -jar quarry.jar [--roles " + Role.all() + "] [--cluster] [--config FILE]";

  static Args parse(String... argv) {
    Set<Role> roles = EnumSet.allOf(Role.class);
    boolean cluster = false;
    Path config = Path.of("conf", "config.json");
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--roles" -> roles = Role.parse(value(argv, ++i, "--roles"));
        case "--cluster" -> cluster = true;
        case "--config" -> config = Path.of(value(argv, ++i, "--config"));
        default -> throw new IllegalArgumentException("Unknown option '" + argv[i] + "'; " + USAGE);
      }
    }
    return new Args(roles, cluster, config);
  }

  private static String value(String[] argv, int i, String option) {
    if (i >= argv.length || argv[i].startsWith("--")) {
      throw new IllegalArgumentException(option + " needs a value; " + USAGE);
    }
    return argv[i];
  }
}
