package io.quarry.app;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** What a node can deploy, in deployment order: storage first, the HTTP edge last so that listening means ready. */
enum Role {
  STORAGE("storage"),
  WORKER("worker"),
  DATASET("dataset"),
  LLM("llm"),
  WEB("web");

  final String label;

  Role(String label) {
    this.label = label;
  }

  static Set<Role> parse(String list) {
    EnumSet<Role> roles = EnumSet.noneOf(Role.class);
    for (String name : list.split(",")) {
      String wanted = name.strip().toLowerCase(Locale.ROOT);
      roles.add(Arrays.stream(values()).filter(r -> r.label.equals(wanted)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("Unknown role '" + name.strip() + "'; roles are " + all())));
    }
    return roles;
  }

  static String all() {
    return Arrays.stream(values()).map(r -> r.label).collect(Collectors.joining(","));
  }
}
