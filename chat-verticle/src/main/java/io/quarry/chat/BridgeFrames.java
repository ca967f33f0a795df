package io.quarry.chat;

import io.quarry.bus.UrlSecrets;
import io.quarry.bus.BusFailure;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * The frames of Vert.x's TCP event-bus bridge protocol, as its clients read them: a 4-byte big-endian length, then that
 * many bytes of one JSON object. Failures carry Quarry's structured fields beside the protocol's own.
 */
final class BridgeFrames {

  private BridgeFrames() {
  }

  /**
   * A frame a client sent, its fields as they came (null where one is missing or not text).
   *
   * @param body null, or whatever JSON the client sent
   */
  record Incoming(String type, String address, String replyAddress, Object body) {
    static Incoming of(JsonObject frame) {
      return new Incoming(text(frame.getValue("type")), text(frame.getValue("address")),
          text(frame.getValue("replyAddress")), frame.getValue("body"));
    }

    /** What a sign-in's body names as its token; empty when nothing. */
    String token() {
      return body instanceof JsonObject json && json.getValue("token") instanceof String token ? token : "";
    }

    private static String text(Object value) {
      return value instanceof String text ? text : null;
    }
  }

  static Buffer encode(JsonObject frame) {
    // An application on the bridge sees dataset URLs as a page does: secrets redacted (see UrlSecrets#shownIn).
    Buffer json = Buffer.buffer(UrlSecrets.shownIn(frame.encode()));
    return Buffer.buffer(json.length() + 4).appendInt(json.length()).appendBuffer(json);
  }

  /** A reply to the request that named {@code replyAddress}. */
  static JsonObject reply(String replyAddress, Object body) {
    return new JsonObject().put("type", "message").put("address", replyAddress).put("body", body).put("send", true);
  }

  /** An event published to an address the client registered. */
  static JsonObject event(String address, Object body) {
    return new JsonObject().put("type", "message").put("address", address).put("body", body).put("send", false);
  }

  static JsonObject pong() {
    return new JsonObject().put("type", "pong");
  }

  /**
   * A request's failure: the protocol's {@code failureCode}, {@code failureType} and {@code message}, and Quarry's
   * {@code code}, {@code message} and {@code details} (and {@code url}, {@code resets_in_seconds} where they apply),
   * so that no client has to take a text apart.
   */
  static JsonObject failure(String replyAddress, String sourceAddress, BusFailure failure) {
    JsonObject frame = new JsonObject().put("type", "err").put("address", replyAddress)
        .put("sourceAddress", sourceAddress).put("failureCode", failure.failure().code())
        .put("failureType", "RECIPIENT_FAILURE").put("code", failure.failure().code())
        .put("message", failure.message()).put(BusFailure.DETAILS, failure.details());
    failure.url().ifPresent(url -> frame.put(BusFailure.URL, url));
    failure.resetsInSeconds().ifPresent(s -> frame.put(BusFailure.RESETS_IN_SECONDS, s));
    return frame;
  }

  /** A frame the bridge refuses outright (a protocol error), not the failure of a request. */
  static JsonObject refused(String message) {
    return new JsonObject().put("type", "err").put("message", message);
  }
}
