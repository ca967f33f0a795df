package io.quarry.chat;

import io.quarry.bus.ApiOps.CreateShare;
import io.quarry.bus.ApiOps.ShareMade;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sha256;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.NewShare;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Share links' one core, for every door (REST's {@code /api/shares} and the bus's {@code api.share.*}): the same checks
 * and messages. A link shows a conversation, one answer of it, or a board. Who may open a link is its sharer's choice within the operator's ceiling, {@code share.audience}:
 * {@code anyone} who has the link, signed-in {@code users} of this Quarry, or {@code off} (no sharing). The token is made
 * here and answered once; only its SHA-256 goes to storage.
 */
final class Sharing {

  /** 256 random bits: nothing to guess, and nothing to learn from a fast unsalted hash of it. */
  private static final int TOKEN_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();
  static final String OFF = "Sharing is turned off on this Quarry (share.audience=off)";
  static final String BOTH = "A link shows a conversation (conversation_id, message_id) or a board (board_id), not both";

  private final StorageClient storage;
  private final String ceiling;

  Sharing(StorageClient storage, String ceiling) {
    this.storage = storage;
    this.ceiling = ceiling;
  }

  Future<ShareMade> create(CreateShare r) {
    if (Shares.OFF.equals(ceiling)) {
      return Future.failedFuture(new QuarryException(Failure.FORBIDDEN, OFF));
    }
    String boardId = given(Bodies.atMost("board_id", r.boardId(), 100));
    String conversationId = boardId == null ? Bodies.required("conversation_id", r.conversationId(), 100)
        : given(Bodies.atMost("conversation_id", r.conversationId(), 100));
    String messageId = given(Bodies.atMost("message_id", r.messageId(), 100));
    if (boardId != null && (conversationId != null || messageId != null)) {
      throw QuarryException.badRequest(BOTH);
    }
    String audience = audience(r.audience());
    String name = Bodies.atMost("display_name", r.displayName(), Shares.MAX_NAME);
    String expiresAt = Shares.expiresIn(days(r.expiresInDays()));
    String token = newToken();
    NewShare share = new NewShare(UUID.randomUUID().toString(), r.userId(), boardId != null ? Shares.BOARD
        : messageId == null ? Shares.CONVERSATION : Shares.MESSAGE, conversationId, messageId, boardId, audience,
        name == null || name.isBlank() ? Shares.DEFAULT_NAME : name.strip(), expiresAt, Sha256.hex(token));
    return storage.createShare(share).map(made -> new ShareMade(made, token, url(token)));
  }

  Future<List<Share>> list(String userId) {
    return storage.shares(userId);
  }

  Future<Share> revoke(String userId, String id) {
    return storage.revokeShare(userId, id);
  }

  /** Within the ceiling: asking for more than the operator allows is refused, saying what is allowed. */
  private String audience(String asked) {
    String audience = asked == null ? Shares.USERS : asked;
    if (!Shares.AUDIENCES.contains(audience)) {
      throw QuarryException.badRequest("Field 'audience' must be users or anyone");
    }
    if (Shares.ANYONE.equals(audience) && Shares.USERS.equals(ceiling)) {
      throw QuarryException.badRequest("This Quarry lets links open only for its signed-in users"
          + " (share.audience=users): choose the audience 'users'");
    }
    return audience;
  }

  /** Absent or blank: not given, as a required field reads it. */
  private static String given(String text) {
    return text == null || text.isBlank() ? null : text;
  }

  /** The bus's text, REST's number as text: the same refusal for either. */
  private static Integer days(String text) {
    if (text == null) {
      return null;
    }
    try {
      int days = Integer.parseInt(text.strip());
      if (days >= 1 && days <= Shares.MAX_DAYS) {
        return days;
      }
    } catch (NumberFormatException e) {
      // Refused below, as out of range is.
    }
    throw QuarryException.badRequest("Field 'expires_in_days' must be a whole number from 1 to " + Shares.MAX_DAYS);
  }

  static String newToken() {
    byte[] bytes = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(bytes);
    return Shares.TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static String url(String token) {
    return "/s/" + token;
  }
}
