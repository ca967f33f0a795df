package io.quarry.bus;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;

/**
 * A {@link QuarryException} on the wire between nodes: JSON text, {@code {"code", "message", ...fields}}, so its
 * fields (a dataset's URL, when asking works again) reach the caller as they were raised. Registered on every event
 * bus that serves or calls an {@link Operation}; Vert.x picks it for the class.
 */
final class FailureCodec implements MessageCodec<QuarryException, QuarryException> {

  static final String NAME = "quarry.failure";
  private static final String CODE = "code";
  private static final String MESSAGE = "message";

  /** Once per event bus; a second registration (another verticle of the same process) changes nothing. */
  static void register(EventBus bus) {
    try {
      bus.registerDefaultCodec(QuarryException.class, new FailureCodec());
    } catch (IllegalStateException alreadyRegistered) {
      // the same codec, registered by another verticle of this process
    }
  }

  @Override
  public void encodeToWire(Buffer buffer, QuarryException failure) {
    Buffer json = failure.fields().put(CODE, failure.failure().code()).put(MESSAGE, failure.getMessage()).toBuffer();
    buffer.appendInt(json.length()).appendBuffer(json);
  }

  @Override
  public QuarryException decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    JsonObject json = new JsonObject(buffer.getBuffer(pos + 4, pos + 4 + length));
    Failure failure = Failure.ofCode((Integer) json.remove(CODE));
    String message = (String) json.remove(MESSAGE);
    return new QuarryException(failure, message, json);
  }

  @Override
  public QuarryException transform(QuarryException failure) {
    return failure;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
