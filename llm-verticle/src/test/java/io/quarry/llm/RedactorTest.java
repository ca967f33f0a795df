package io.quarry.llm;

import static io.quarry.llm.Redactor.MARK;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

  static final String KEY = "sk-proj-Q7fT2mK9xLw4Rb8Np3Vc6Zs1Hd5Gy0JeT3BlbkFJu8Wq";
  private final Redactor redactor = Redactor.of(KEY);

  @Test
  @DisplayName("the configured key is taken out wherever it stands, the words around it kept")
  void exactKey() {
    assertThat(redactor.apply("Invalid key " + KEY + ".")).isEqualTo("Invalid key " + MARK + ".");
    assertThat(redactor.apply("x" + KEY + "y")).isEqualTo("x" + MARK + "y");
    assertThat(redactor.apply(KEY + KEY)).doesNotContain("Q7fT").doesNotContain("u8Wq");
  }

  @Test
  @DisplayName("a masked key loses its tail (OpenAI's sk-****abcd) and any run of 8 of its characters")
  void fragments() {
    assertThat(redactor.apply("Incorrect API key provided: sk-****u8Wq."))
        .isEqualTo("Incorrect API key provided: sk-****" + MARK + ".");
    assertThat(redactor.apply("key sk-proj-********************u8Wq")).isEqualTo("key " + MARK + "********************"
        + MARK);
    assertThat(redactor.apply("ends …JeT3BlbkFJu8Wq")).isEqualTo("ends …" + MARK);
    assertThat(redactor.apply("begins sk-proj-Q7fT2m…")).isEqualTo("begins " + MARK + "…");
    // 8 or more glued to other characters; fewer only as a word of its own.
    assertThat(redactor.apply("zzzNp3Vc6Zszzz")).isEqualTo("zzz" + MARK + "zzz");
    assertThat(redactor.apply("the project's quota")).isEqualTo("the project's quota");
  }

  @Test
  @DisplayName("header values go, whoever's key they hold: Authorization (Bearer, Basic), x-goog-api-key, api-key")
  void headers() {
    assertThat(Redactor.of().apply("Authorization: Bearer xyz")).isEqualTo("Authorization: Bearer " + MARK);
    assertThat(Redactor.of().apply("{\"Authorization\": \"Basic dXNlcjpwYXNz\"}"))
        .isEqualTo("{\"Authorization\": \"Basic " + MARK + "\"}");
    assertThat(Redactor.of().apply("x-goog-api-key: abc123, then")).isEqualTo("x-goog-api-key: " + MARK + ", then");
    assertThat(Redactor.of().apply("api-key=abc123")).isEqualTo("api-key=" + MARK);
    assertThat(Redactor.of().apply("sent Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc and more"))
        .isEqualTo("sent Bearer " + MARK + " and more");
  }

  @Test
  @DisplayName("key= parameters and a URL's user info are taken out of URLs")
  void urls() {
    assertThat(Redactor.of().apply("GET https://h/v1beta/models/m:generate?alt=sse&key=abc123&x=1 failed"))
        .isEqualTo("GET https://h/v1beta/models/m:generate?alt=sse&key=" + MARK + "&x=1 failed");
    assertThat(Redactor.of().apply("https://h/v1?api_key=abc123")).isEqualTo("https://h/v1?api_key=" + MARK);
    assertThat(Redactor.of().apply("https://bob:hunter2@h/v1")).isEqualTo("https://" + MARK + "@h/v1");
  }

  @Test
  @DisplayName("key-shaped strings go though no key was configured: AIza..., sk-..., a long token after key/token/secret")
  void keyShaped() {
    Redactor none = Redactor.of();
    assertThat(none.apply("key AIzaSyD8q2Xv7LkP0wRt5mNb3cZe9HfGj4Ks1Ua is invalid"))
        .isEqualTo("key " + MARK + " is invalid");
    assertThat(none.apply("got sk-ant-api03-AbCdEfGhIjKlMnOpQrSt.")).isEqualTo("got " + MARK + ".");
    assertThat(none.apply("The API key provided 0a1b2c3d4e5f6a7b8c9d is invalid"))
        .isEqualTo("The API key provided " + MARK + " is invalid");
    assertThat(none.apply("secret: \"Zm9vYmFyYmF6cXV4MTIz\"")).isEqualTo("secret: \"" + MARK + "\"");
    assertThat(none.apply("token=9f8e7d6c5b4a39281706")).isEqualTo("token=" + MARK);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT key, token, secret FROM t WHERE key = 'a' AND token > 3 ORDER BY key",
      "Group by the key column, then join on api_key",
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      "Bearer token authentication failed; the key was not found",
      "Visit https://platform.openai.com/account/api-keys?ref=docs to get a key",
      "Skip the desk-top and sk- prefixes",
      "The model is overloaded. Please try again later."})
  @DisplayName("ordinary text is left as it is: SQL, 'the key column', token counts, words about keys")
  void ordinaryText(String text) {
    assertThat(redactor.apply(text)).isEqualTo(text);
  }

  @Test
  @DisplayName("null and empty stay; a short configured key (a local server's) is no secret to hunt for")
  void edges() {
    assertThat(redactor.apply(null)).isNull();
    assertThat(redactor.apply("")).isEmpty();
    assertThat(Redactor.of("abc", "", null).apply("abc abcd")).isEqualTo("abc abcd");
  }

  @Test
  @DisplayName("a server's long page is cut at 4,000 characters, and a key cut in two there is still taken out")
  void longText() {
    String page = "<p>denied</p>".repeat(1_000_000 / 13);
    String cutKey = "x".repeat(Redactor.MAX_CHARS - 10) + " " + KEY + page;
    String redacted = redactor.apply(cutKey);
    assertThat(redacted).hasSize(Redactor.MAX_CHARS - 9 + MARK.length() + 1).endsWith(" " + MARK + "…")
        .doesNotContain("sk-proj");
    assertThat(redactor.apply(page)).hasSize(Redactor.MAX_CHARS + 1);
  }

  @Test
  @DisplayName("an exception scrubbed for the log keeps its classes and frames, its messages and its cause's redacted")
  void scrub() {
    IllegalStateException cause = new IllegalStateException("upstream quoted " + KEY);
    IllegalArgumentException e = new IllegalArgumentException("Cannot read \"" + KEY + "\"", cause);
    String logged = ThrowableProxyUtil.asString(new ThrowableProxy(redactor.scrub(e)));
    assertThat(logged).doesNotContain("u8Wq").doesNotContain("Q7fT2mK9")
        .contains("java.lang.IllegalArgumentException: Cannot read \"" + MARK + "\"")
        .contains("java.lang.IllegalStateException: upstream quoted " + MARK)
        .contains("\tat io.quarry.llm.RedactorTest.scrub");
  }
}
