package io.quarry.app;

import io.quarry.worker.pool.NodeWatch;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar quarry.jar [--roles ...] [--cluster] [--config FILE]}: starts a node or exits 1 with one
 * line. {@code java -jar quarry.jar invite create}: prints a new invite for sign-up; {@code token create|revoke}: the
 * event-bus bridge's API tokens ({@link TokenCommand}); {@code class-archive FILE}: what makes a start faster
 * ({@link ClassArchiveCommand}).
 */
public final class Main {

  private static final long STOP_LIMIT_S = 30;

  private Main() {
  }

  public static void main(String[] argv) {
    // First, before anything slow: a worker process ends with the node that started it, even while it starts.
    String supervisor = supervisor(argv);
    NodeWatch fromNode = supervisor == null ? null : NodeWatch.start(System.in, supervisor);
    // Netty's allocator registers its flight-recorder events at its first buffer, which starts the JDK's recorder (a
    // tenth of a second of every process's start, on an event loop); -Dio.netty.jfr.enabled=true keeps them.
    if (System.getProperty("io.netty.jfr.enabled") == null) {
      System.setProperty("io.netty.jfr.enabled", "false");
    }
    if (argv.length > 0 && "invite".equals(argv[0])) {
      command("Could not create an invite: ", InviteCommand.run(System.getenv(), argv));
      return;
    }
    if (argv.length > 0 && "token".equals(argv[0])) {
      command("Could not manage the token: ", TokenCommand.run(System.getenv(), argv));
      return;
    }
    if (argv.length > 0 && "class-archive".equals(argv[0])) {
      command("Could not write the class archive: ", ClassArchiveCommand.run(argv));
      return;
    }
    Node node;
    try {
      node = Launcher.start(System.getenv(), fromNode, argv).await();
    } catch (Throwable e) {
      System.err.println("Quarry failed to start: " + oneLine(e));
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(node), "quarry-shutdown"));
    if (supervisor == null) {
      boundHeap();
    }
  }

  /** See {@link SoftHeap}; worker processes run the serial collector. */
  private static void boundHeap() {
    long soft = SoftHeap.bound();
    if (soft > 0) {
      LoggerFactory.getLogger(Main.class).info("Under ZGC the heap is kept near {} MB (-XX:SoftMaxHeapSize="
          + "SIZE chooses another)", soft >> 20);
    }
  }

  /**
   * A worker process's {@code --supervisor}, read before {@link Args} (whose usage line alone, built with a stream and
   * Java's first lambda, costs 30 ms of a worker JVM's first 100).
   */
  private static String supervisor(String[] argv) {
    for (int i = 0; i + 1 < argv.length; i++) {
      if (argv[i].equals("--supervisor")) {
        return argv[i + 1];
      }
    }
    return null;
  }

  /**
   * SIGTERM or Ctrl-C drains the node ({@link Node#drain}): running answers have {@code shutdown.graceMs} to finish,
   * then its worker processes end, it leaves the cluster, the HTTP server and storage close. Bounded, so a stuck close
   * cannot keep the process alive.
   */
  private static void stop(Node node) {
    long limitMs = node.settings().shutdownGraceMs() + Node.DRAIN_MARGIN_MS;
    try {
      node.drain().toCompletionStage().toCompletableFuture().get(limitMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      System.err.println("Quarry did not drain cleanly: " + oneLine(e));
    }
    try {
      node.stop().toCompletionStage().toCompletableFuture().get(STOP_LIMIT_S, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("Quarry did not stop cleanly: " + oneLine(e));
    }
  }

  private static void command(String failed, io.vertx.core.Future<String> run) {
    try {
      System.out.println(run.await());
      System.exit(0);
    } catch (Throwable e) {
      System.err.println(failed + oneLine(e));
      System.exit(1);
    }
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
