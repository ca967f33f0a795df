package io.quarry.app;

/**
 * {@code java -jar quarry.jar [--roles ...] [--cluster] [--config FILE]}: starts a node or exits 1 with one
 * line. {@code java -jar quarry.jar invite create}: prints a new invite for sign-up.
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] argv) {
    if (argv.length > 0 && "invite".equals(argv[0])) {
      invite(argv);
      return;
    }
    try {
      Launcher.start(System.getenv(), argv).await();
    } catch (Throwable e) {
      System.err.println("Quarry failed to start: " + oneLine(e));
      System.exit(1);
    }
  }

  private static void invite(String[] argv) {
    try {
      System.out.println(InviteCommand.run(System.getenv(), argv).await());
      System.exit(0);
    } catch (Throwable e) {
      System.err.println("Could not create an invite: " + oneLine(e));
      System.exit(1);
    }
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
