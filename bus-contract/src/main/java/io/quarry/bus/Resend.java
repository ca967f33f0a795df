package io.quarry.bus;

/** Whether an {@link Operation} is sent again when the node serving it may have died (see {@link Failover}). */
public enum Resend {
  /** What a second delivery would do twice, or answer differently: sent once. */
  NEVER,
  /** A timeout or nobody listening may be a dead node: try again, as at a member's departure. */
  IDEMPOTENT,
  /** As {@link #IDEMPOTENT}, and NOT_FOUND after a try that got no answer means the earlier try did the work. */
  REMOVAL,
  /**
   * Long requests (a query), whose timeout says they ran too long, not that their node died: sent again only when
   * nobody listened or a member left.
   */
  NOT_ON_TIMEOUT
}
