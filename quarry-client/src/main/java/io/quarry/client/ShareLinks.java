package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateShare;
import io.quarry.bus.ApiOps.ShareMade;
import io.quarry.bus.Bus;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Shares;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/** A user's read-only share links ({@code /s/<token>}): made (the token answered once), listed, revoked. */
public final class ShareLinks {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public ShareLinks(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** A link to the conversation as it is now, or with {@code messageId} to that answer; see {@link CreateShare}. */
  public Future<ShareMade> create(CreateShare request) {
    return ApiOps.SHARE_CREATE.call(bus, request);
  }

  public Future<List<Shares.Share>> list(String userId) {
    return ApiOps.SHARE_LIST.call(bus, new UserRef(userId));
  }

  public Future<Shares.Share> revoke(String userId, String id) {
    return ApiOps.SHARE_REVOKE.call(bus, new Shares.ShareRef(userId, id));
  }
}
