package io.quarry.bus;

import static io.quarry.bus.Fields.optional;
import static io.quarry.bus.Fields.text;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * Share links ({@code /s/<token>}): a read-only view of a conversation (as it was when shared) or of one answer, for
 * whom its sharer chose within what the operator allows ({@code share.audience}). Only the SHA-256 of a link's token is
 * stored; the token is made at the edge, shown once, and never crosses the bus. A board is shared as a kind of its
 * own ({@link #BOARD}, with its board's id): the table and the operations name what a share shows by kind and target,
 * not by a table of each.
 */
public final class Shares {

  private Shares() {
  }

  /** What a share shows. */
  public static final String CONVERSATION = "conversation";
  public static final String MESSAGE = "message";
  public static final String BOARD = "board";

  /** Who may open a link: anyone who has it, or signed-in users of this Quarry; {@link #OFF}: no sharing at all. */
  public static final String ANYONE = "anyone";
  public static final String USERS = "users";
  public static final String OFF = "off";
  /** The audiences a sharer may pick, least exposed first. */
  public static final List<String> AUDIENCES = List.of(USERS, ANYONE);

  /** What a link says it comes from when its sharer gave no name: never their e-mail. */
  public static final String DEFAULT_NAME = "a Quarry user";
  /** The longest display name. */
  public static final int MAX_NAME = 100;
  /** The longest a link may be made to last, in days. */
  public static final int MAX_DAYS = 365;
  /** The one answer of every token that opens nothing: unknown, revoked and expired alike, so none tells which. */
  public static final String NOT_FOUND = "This link does not exist or no longer works";
  /** A token's prefix, so that one pasted somewhere is recognisable (as {@code qt_} for API tokens). */
  public static final String TOKEN_PREFIX = "qs_";

  /** When a share made now for {@code days} days expires, as stored; null (never) for null. */
  public static String expiresIn(Integer days) {
    if (days == null) {
      return null;
    }
    if (days < 1 || days > MAX_DAYS) {
      throw QuarryException.badRequest("Field 'expires_in_days' must be 1 to " + MAX_DAYS + ", or absent (never)");
    }
    return Timestamps.format(Instant.now().plusSeconds(days * 86_400L));
  }

  /**
   * A new share of {@code userId}'s, named by the id its maker chose (a second delivery finds it made), with the hash of
   * its token. {@code conversationId} for kinds {@link #CONVERSATION} and {@link #MESSAGE} ({@code messageId}: an
   * answer of the conversation), {@code boardId} for {@link #BOARD}; {@code expiresAt} null: never.
   */
  public record NewShare(String id, String userId, String kind, String conversationId, String messageId,
      String boardId, String audience, String displayName, String expiresAt, String tokenHash) {
    static final Codec<NewShare> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.ID, r.id).put(Keys.USER_ID, r.userId).put("kind", r.kind)
            .put(Keys.CONVERSATION_ID, r.conversationId).put(Keys.MESSAGE_ID, r.messageId)
            .put(Keys.BOARD_ID, r.boardId).put("audience", r.audience)
            .put("display_name", r.displayName).put(Keys.EXPIRES_AT, r.expiresAt).put(Keys.TOKEN_HASH, r.tokenHash),
        json -> new NewShare(text(json, Keys.ID), text(json, Keys.USER_ID), text(json, "kind"),
            optional(json, Keys.CONVERSATION_ID), optional(json, Keys.MESSAGE_ID), optional(json, Keys.BOARD_ID),
            text(json, "audience"), text(json, "display_name"), optional(json, Keys.EXPIRES_AT),
            text(json, Keys.TOKEN_HASH)));
  }

  /**
   * A share as its sharer sees it again (never its token, which was shown once). {@code title}: the title of what it
   * shows now (a conversation's or a board's); {@code until}: a conversation's snapshot's bound, what was there then is
   * what the link shows (a board's link shows its tiles as they are when opened).
   */
  public record Share(String id, String kind, String conversationId, String messageId, String boardId, String audience,
      String displayName, String title, String createdAt, String expiresAt, String revokedAt, String until) {
    static final Codec<Share> CODEC = Codec.json(Share::toJson, Share::fromJson);

    /** {@code active}, {@code expired} or {@code revoked}, at {@code now}. */
    public String status(String now) {
      return revokedAt != null ? "revoked" : expiresAt != null && expiresAt.compareTo(now) <= 0 ? "expired" : "active";
    }

    public JsonObject toJson() {
      return new JsonObject().put(Keys.ID, id).put("kind", kind).put(Keys.CONVERSATION_ID, conversationId)
          .put(Keys.MESSAGE_ID, messageId).put(Keys.BOARD_ID, boardId).put("audience", audience).put("display_name", displayName)
          .put(Keys.TITLE, title).put(Keys.CREATED_AT, createdAt).put(Keys.EXPIRES_AT, expiresAt)
          .put("revoked_at", revokedAt).put("until", until);
    }

    public static Share fromJson(JsonObject json) {
      return new Share(json.getString(Keys.ID), json.getString("kind"), json.getString(Keys.CONVERSATION_ID),
          json.getString(Keys.MESSAGE_ID), json.getString(Keys.BOARD_ID), json.getString("audience"), json.getString("display_name"),
          json.getString(Keys.TITLE), json.getString(Keys.CREATED_AT), json.getString(Keys.EXPIRES_AT),
          json.getString("revoked_at"), json.getString("until"));
    }
  }

  /** A live share found by its token's hash, with whose it is (which never leaves the edge). */
  public record Opened(Share share, String userId) {
    static final Codec<Opened> CODEC = Codec.json(r -> r.share.toJson().put(Keys.USER_ID, r.userId),
        json -> new Opened(Share.fromJson(json), json.getString(Keys.USER_ID)));
  }

  /** A share by its token's hash. */
  public record TokenHash(String tokenHash) {
    static final Codec<TokenHash> CODEC = Codec.json(r -> new JsonObject().put(Keys.TOKEN_HASH, r.tokenHash),
        json -> new TokenHash(text(json, Keys.TOKEN_HASH)));
  }

  /** One of a user's shares. */
  public record ShareRef(String userId, String id) {
    static final Codec<ShareRef> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.ID, r.id),
        json -> new ShareRef(text(json, Keys.USER_ID), text(json, Keys.ID)));
  }
}
