package io.quarry.app;

import io.quarry.chat.ChatVerticle;
import io.quarry.dataset.DatasetVerticle;
import io.quarry.llm.LlmVerticle;
import io.quarry.storage.StorageVerticle;
import io.quarry.worker.pool.WorkerPool;
import io.vertx.core.Deployable;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** What a node can deploy, in deployment order: storage first, the HTTP edge last so that listening means ready. */
enum Role {
  STORAGE("storage", "storage", StorageVerticle::new),
  WORKER("worker", "worker", WorkerPool::inProcess),
  DATASET("dataset", "dataset", DatasetVerticle::new),
  LLM("llm", "llm", LlmVerticle::new),
  WEB("web", "chat", ChatVerticle::new);

  final String label;
  final String configSection;
  final Supplier<Deployable> verticle;

  Role(String label, String configSection, Supplier<Deployable> verticle) {
    this.label = label;
    this.configSection = configSection;
    this.verticle = verticle;
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
