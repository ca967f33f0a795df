package io.quarry.dataset;

import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A scheduled run's webhook: a POST of the run as JSON, signed so that its receiver knows it is Quarry's and fresh.
 * {@code X-Quarry-Signature: sha256=<hex>} is the HMAC-SHA256, under the schedule's secret, of {@code
 * <X-Quarry-Timestamp>.<body>}: the timestamp (epoch seconds) is in the signed text, so a receiver that refuses old
 * timestamps refuses replays. The URL is held to the datasets' address policy when it is called ({@link
 * OutboundHttp#post}); no redirect is followed; the answer's status is all that is read.
 */
final class Webhooks {

  static final String SIGNATURE = "X-Quarry-Signature";
  static final String TIMESTAMP = "X-Quarry-Timestamp";
  static final String RUN = "X-Quarry-Run";

  /** What an attempt came to: delivered (2xx), refused for good (the address policy), or worth trying again. */
  enum Outcome { DELIVERED, REFUSED, FAILED }

  record Attempt(Outcome outcome, String error) {
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final long timeoutMs;

  Webhooks(Vertx vertx, OutboundHttp http, long timeoutMs) {
    this.vertx = vertx;
    this.http = http;
    this.timeoutMs = timeoutMs;
  }

  /** The body every attempt of a run sends: the same run, the same words. */
  static JsonObject body(Schedule schedule, ScheduleRun run) {
    boolean ok = ScheduleRun.OK.equals(run.status());
    return new JsonObject().put("schedule_id", schedule.id()).put("run_id", run.id()).put("due_at", run.dueAt())
        .put("ran_at", run.finishedAt()).put("status", run.status()).put("ok", ok).put("summary", run.summary())
        .put("comparison", run.comparison()).put("reason", run.reason()).put("error", ok ? null : run.reason())
        .put("conversation_id", schedule.conversationId()).put("result_id", run.resultId())
        .put("target_kind", schedule.targetKind()).put("target_id", schedule.targetId());
  }

  static String signature(String secret, long timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] digest = mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      return "sha256=" + HexFormat.of().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is missing from this JVM", e);
    }
  }

  Future<Attempt> send(Schedule schedule, ScheduleRun run, Instant now) {
    String body = body(schedule, run).encode();
    long timestamp = now.getEpochSecond();
    URI url;
    try {
      url = OutboundHttp.parse(schedule.webhookUrl()).orElseThrow();
    } catch (RuntimeException e) {
      return Future.succeededFuture(new Attempt(Outcome.REFUSED, "The webhook URL is not an http or https URL"));
    }
    Map<String, String> headers = Map.of("Content-Type", "application/json", "User-Agent", "Quarry-Webhook",
        TIMESTAMP, Long.toString(timestamp), SIGNATURE, signature(schedule.webhookSecret(), timestamp, body),
        RUN, run.id());
    Deadline deadline = new Deadline(vertx, timeoutMs);
    return deadline.close(http.post(url, headers, Buffer.buffer(body), deadline).map(exchange -> {
      int status = exchange.response().statusCode();
      exchange.discard();
      return status >= 200 && status < 300 ? new Attempt(Outcome.DELIVERED, null)
          : new Attempt(Outcome.FAILED, "The webhook answered HTTP " + status);
    })).recover(e -> Future.succeededFuture(e instanceof OutboundHttp.Refused
        ? new Attempt(Outcome.REFUSED, e.getMessage())
        : new Attempt(Outcome.FAILED, "The webhook could not be reached: " + OutboundHttp.reason(e))));
  }
}
