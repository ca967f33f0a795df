package io.quarry.testing;

import java.nio.charset.StandardCharsets;

/**
 * Whether the build bundled the UI's modules (chat-verticle's bundle-ui profile, where Maven Central has esbuild for
 * the build's platform): a page's entry script, as served, then imports no module.
 */
public final class UiBundle {

  private UiBundle() {
  }

  public static boolean bundled(byte[] entryScript) {
    return new String(entryScript, StandardCharsets.UTF_8).lines().noneMatch(line -> line.startsWith("import "));
  }
}
