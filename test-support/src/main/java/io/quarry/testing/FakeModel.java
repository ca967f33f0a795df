package io.quarry.testing;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;

/**
 * A model provider's server on loopback, scripted response by response: {@link FakeGemini} or {@link FakeOpenAI}, so a
 * test can run once over each. The type parameter is the fake's own request type, so a responder written for one
 * fake (taking a {@code FakeGemini.Request}) still fits it; a test over both holds a {@code FakeModel<?>}.
 */
public interface FakeModel<Q extends FakeModel.Request> {

  /** What a client is configured with: Gemini's host, or OpenAI's base ending in {@code /v1}. */
  String baseUrl();

  /** {@code "gemini"} or {@code "openai"}. */
  String provider();

  /** Enqueues the script that answers the next unanswered request. */
  Script next();

  /**
   * Answers every request that finds no enqueued script with the script {@code responder} makes of it; the script
   * must be this fake's own (one of its {@link #next()} or its Script's constructor).
   */
  void respondWith(Function<? super Q, ? extends Script> responder);

  List<Q> requests();

  /** The next request to arrive (in order), waiting at most ten seconds. */
  Q awaitRequest() throws InterruptedException;

  void release(String gate);

  /** Forgets every script, request and gate, as a server started afresh would: for a node shared by several tests. */
  void reset();

  Future<Void> close();

  /** One recorded request, read the same way whichever provider's shape it has. */
  interface Request {

    String model();

    /** The key the client sent ({@code null} or empty when it sent none). */
    String apiKey();

    JsonObject body();

    long receivedNanos();

    /** The system instruction's text. */
    String systemText();

    /** The text of each user message, in order (tool results are not user text). */
    List<String> userTexts();

    /**
     * Every tool result sent, in order: {@code name} and {@code id} when the request tells them, {@code response} the
     * result as an object.
     */
    List<JsonObject> functionResponses();
  }

  /** What one response does, step by step; each method adds a step and returns this script. */
  interface Script {

    Script text(String text);

    Script call(String name, JsonObject args);

    /** Reasoning the model shows apart from its answer; never the answer. */
    Script thought(String text);

    /** The end: finish as the model chose to (its answer or its calls), with token usage. */
    Script usage(int promptTokens, int outputTokens);

    /** Text in one chunk per piece, then usage. */
    Script answer(String... pieces);

    /** The end: cut off at the output token limit. */
    Script cutOff(int promptTokens, int outputTokens);

    /** The end: declined by the provider's safety filter. */
    Script declined(int promptTokens);

    /** The end, with no answer at all. */
    Script empty(int promptTokens);

    /** An event whose data is {@code data} as written, JSON or not. */
    Script rawEvent(String data);

    /** An event that is JSON but of a shape the provider's SDK cannot read. */
    Script oddEvent();

    /** An event the provider's SDK cannot read, with {@code text} in the field it cannot read. */
    Script oddEvent(String text);

    /** The end: a tool call the model could not form. */
    Script malformed(int promptTokens);

    /** The end: usage with thinking tokens besides the output's (each provider counts them its own way). */
    Script usage(int promptTokens, int outputTokens, int thoughtTokens);

    Script pause(long ms);

    /** Waits, without sending anything, until the test calls {@link FakeModel#release(String)}. */
    Script gate(String name);

    /** Sends nothing more and never ends, until the client goes away (bounded at two minutes). */
    Script stall();

    /** An HTTP error with the provider's error body, before any event. */
    Script httpError(int status, String message);

    /** An HTTP error whose body is {@code text} as given, plain text: a proxy's, not the provider's shape. */
    Script rawError(int status, String text);

    /** The HTTP 400 the provider answers a request too large for the model's context with. */
    Script contextTooLarge();

    /** An error event in the middle of the stream, then the end. */
    Script streamError(int code, String message);

    /** Closes the connection abruptly. */
    Script hangUp();

    /** When each scripted event was written (System.nanoTime). */
    List<Long> sentNanos();

    /** Completes when the client closed (or reset) this response's connection or the response ended. */
    Future<Void> closed();
  }
}
