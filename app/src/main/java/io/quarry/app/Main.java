package io.quarry.app;

/** {@code java -jar quarry.jar [--roles ...] [--cluster] [--config FILE]}: starts a node or exits 1 with one line. */
public final class Main {

  private Main() {
  }

  public static void main(String[] argv) {
    try {
      Launcher.start(System.getenv(), argv).await();
    } catch (Throwable e) {
      System.err.println("Quarry failed to start: " + oneLine(e));
      System.exit(1);
    }
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
