package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import io.micrometer.core.instrument.Metrics;
import io.quarry.bus.ChatMessage;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * A model server that refuses the key may quote it — whole (a proxy, some compatible servers), masked to its tail
 * (OpenAI), in the {@code Authorization} header or a URL's {@code key=}. None of it reaches the user's events, the
 * stored reply, the log (at debug too), the history sent back to the model, or a metric's labels.
 */
class KeyRedactionTest extends TurnTestBase {

  /** Keys of the real shapes: Google's 39 characters from "AIza", OpenAI's project key. */
  static final String GEMINI_KEY = "AIzaSyD8q2Xv7LkP0wRt5mNb3cZe9HfGj4Ks1Ua";
  static final String OPENAI_KEY = "sk-proj-Q7fT2mK9xLw4Rb8Np3Vc6Zs1Hd5Gy0JeT3BlbkFJu8Wq";

  /** How a server quotes the key it was sent. */
  enum Echo {
    WHOLE {
      @Override
      void script(FakeModel.Script s, String key) {
        s.httpError(401, "API key not valid. Please pass a valid API key. Received: " + key);
      }
    },
    MASKED {
      @Override
      void script(FakeModel.Script s, String key) {
        s.httpError(401, "Incorrect API key provided: " + key.substring(0, 8) + "************" + tail(key) + " ("
            + key.substring(0, 3) + "****…" + tail(key) + "). You can find your API key at"
            + " https://platform.openai.com/account/api-keys.");
      }
    },
    HEADER {
      @Override
      void script(FakeModel.Script s, String key) {
        s.httpError(403, "Forbidden: the request had Authorization: Bearer " + key + " and x-goog-api-key: " + key);
      }
    },
    URL {
      @Override
      void script(FakeModel.Script s, String key) {
        s.httpError(400, "Bad request to https://proxy.example/v1beta/models/m:streamGenerateContent?alt=sse&key="
            + key);
      }
    },
    PROXY_TEXT {
      @Override
      void script(FakeModel.Script s, String key) {
        s.rawError(401, "401 Unauthorized\nupstream said: {\"api_key\": \"" + key + "\"}\nAuthorization: Bearer " + key);
      }
    },
    /** Status 0: the user's error says "Could not reach ..." with the server's words, stored as the reply's notice. */
    MID_STREAM {
      @Override
      void script(FakeModel.Script s, String key) {
        s.text("Counting ").streamError(0, "The key " + key + " was revoked");
      }
    };

    abstract void script(FakeModel.Script s, String key);
  }

  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
    @Override
    protected void append(ILoggingEvent event) {
      logged.add(event.getLevel() + " " + event.getFormattedMessage()
          + (event.getThrowableProxy() == null ? "" : "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy())));
    }
  };

  @Override
  JsonObject llmConfig() {
    return new JsonObject().put("apiKey", GEMINI_KEY).put("openaiApiKey", OPENAI_KEY);
  }

  String key() {
    return turn.speaksGemini() ? GEMINI_KEY : OPENAI_KEY;
  }

  static String tail(String key) {
    return key.substring(key.length() - 4);
  }

  @BeforeEach
  void captureLog() {
    appender.start();
    root().addAppender(appender);
    quarry().setLevel(Level.DEBUG);
  }

  @AfterEach
  void releaseLog() {
    root().detachAppender(appender);
    quarry().setLevel(null);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Echo.class)
  @DisplayName("a refusal that quotes the key reaches the user, the stored reply, the log and the metrics redacted")
  void refusalQuotingTheKey(Echo echo) throws Exception {
    echo.script(turn.model.next(), key());
    turn.asked("Hello?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject error = events.get(events.size() - 1);
    assertThat(error.getString("type")).isEqualTo("chat_error");
    assertNoKey("chat_error.error", error.getString("error"));
    assertNoKey("chat_error.details", error.getString("details"));
    // Redacted, not dropped: the user still reads what the server said around the key.
    assertThat(error.getString("details")).contains(Redactor.MARK);
    events.forEach(e -> assertNoKey("event " + e.getString("type"), e.encode()));
    turn.messages().forEach(m -> assertNoKey("stored " + m.role() + " message", m.toJson().encode()));
    assertThat(turn.answer().status()).isEqualTo(ChatMessage.ERROR);
    assertThat(logged).as("the turn's failure is logged").anyMatch(line -> line.startsWith("WARN Turn of conversation")
        && line.contains(Redactor.MARK));
    logged.forEach(line -> assertNoKey("log", line));
    Metrics.globalRegistry.getMeters().forEach(meter -> meter.getId().getTags()
        .forEach(tag -> assertNoKey("metric " + meter.getId().getName(), tag.getValue())));
  }

  @Test
  @DisplayName("an event the SDK cannot read that carries the key is logged, at warn and at debug with its stack, redacted")
  void unreadableEventQuotingTheKey() throws Exception {
    turn.model.next().text("Counting ").oddEvent("refused key " + key());
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    events.forEach(e -> assertNoKey("event " + e.getString("type"), e.encode()));
    String debug = logged.stream().filter(line -> line.startsWith("DEBUG The event:")).findFirst().orElseThrow();
    assertThat(debug).contains(Redactor.MARK).contains("\tat ");
    logged.forEach(line -> assertNoKey("log", line));
  }

  @Test
  @DisplayName("after a failure that quoted the key, the next question's history sent to the model carries none of it")
  void historyAfterTheFailure() throws Exception {
    Echo.MID_STREAM.script(turn.model.next(), key());
    turn.asked("Count them");
    turn.events.next("chat_error");
    turn.model.next().answer("Back.");
    turn.asked("Again?");
    turn.events.untilTurnEnds();
    assertNoKey("the request's body", turn.request(1).body().encode());
  }

  @Test
  @DisplayName("a prompt blocked for a reason that is no reason's name does not show what Gemini sent")
  void blockReasonIsAName() throws Exception {
    Assumptions.assumeTrue(turn.speaksGemini(), "Gemini's promptFeedback");
    turn.gemini().next().promptBlocked(GEMINI_KEY, 25);
    turn.asked("Anything");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("notice"))
        .isEqualTo("Gemini declined to read this question for a reason it did not give.");
    assertNoKey("stored reply", turn.answer().toJson().encode());
  }

  /** Neither the key, nor a run of 8 of its characters, nor its last 4 (what OpenAI's mask shows). */
  private void assertNoKey(String where, String text) {
    if (text == null) {
      return;
    }
    String key = key();
    assertThat(text).as(where).doesNotContain(tail(key));
    for (int i = 0; i + 8 <= key.length(); i++) {
      assertThat(text).as(where).doesNotContain(key.substring(i, i + 8));
    }
  }

  private static Logger root() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  private static Logger quarry() {
    return (Logger) LoggerFactory.getLogger("io.quarry");
  }
}
