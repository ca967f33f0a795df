package io.quarry.bus;

/** What a node asks of its own verticles as it stops, inside its process only. */
public final class NodeOps {

  private NodeOps() {
  }

  /**
   * The node starts to drain ({@link Addresses#NODE_DRAINING}): its readiness answers 503 and its edge refuses new
   * questions with {@link LlmClient#RESTARTING}. Answers once that is so, so that the node says it only then; a node
   * without the web role has no one to answer.
   */
  public static final Operation<Void, Void> DRAINING = Operation.of(Addresses.NODE_DRAINING, Codec.NONE, Codec.NONE,
      Deliveries.STORAGE_TIMEOUT_MS, Resend.NEVER);
}
