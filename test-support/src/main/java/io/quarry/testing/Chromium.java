package io.quarry.testing;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Debian's Chromium as the browser tests and the reload benchmark drive it (through Playwright, without any browser
 * download): its headless shell where installed, the whole browser otherwise; {@code QUARRY_CHROMIUM} names another.
 */
public final class Chromium {

  /**
   * The headless shell (Debian's chromium-headless-shell, the same engine without the browser's user interface) runs
   * the same pages for half the CPU: on five browser classes 36 CPU-seconds against 70, a third of the renderer
   * processes. The suite's browser tests are CPU-bound on two cores.
   */
  public static final Path EXECUTABLE = Path.of(System.getenv().getOrDefault("QUARRY_CHROMIUM",
      Files.isExecutable(Path.of("/usr/bin/chromium-headless-shell")) ? "/usr/bin/chromium-headless-shell"
          : "/usr/bin/chromium"));

  /** Nothing of its own on the network or in the background: only the pages' traffic, on loopback. */
  public static final List<String> ARGS = List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic");

  private Chromium() {
  }

  /** Playwright's driver, told to download no browser. */
  public static Playwright playwright() {
    return Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
  }

  /** This Chromium, headless, with {@link #ARGS}. */
  public static Browser launch(Playwright playwright) {
    return playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(EXECUTABLE).setHeadless(true)
        .setArgs(ARGS));
  }
}
