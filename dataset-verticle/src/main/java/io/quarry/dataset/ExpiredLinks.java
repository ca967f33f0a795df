package io.quarry.dataset;

import io.quarry.bus.UrlSecrets;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import java.net.URI;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Whether an origin refused a signed link because it expired, so the user is told to paste a fresh one rather than
 * left with "Could not access URL". The link's own dates say so when it has them (X-Amz-Date plus X-Amz-Expires,
 * Expires, se); else the first kilobytes of the origin's refusal do: S3's {@code Request has expired}, GCS's
 * {@code ExpiredToken}, Azure's {@code Signed expiry time}.
 */
final class ExpiredLinks {

  private static final int BODY_BYTES = 4_096;
  private static final Pattern SAYS_EXPIRED = Pattern.compile(
      "Request has expired|ExpiredToken|Signed expiry time|token has expired", Pattern.CASE_INSENSITIVE);

  private ExpiredLinks() {
  }

  /** Consumes the refusal either way; true when it says the signed link expired. */
  static Future<Boolean> expired(URI url, Exchange exchange) {
    int status = exchange.response().statusCode();
    boolean refusal = status == 400 || status == 401 || status == 403;
    if (!refusal || !UrlSecrets.signed(url.toString()) || UrlSecrets.expired(url.toString(), Instant.now())) {
      exchange.discard();
      return Future.succeededFuture(refusal && UrlSecrets.signed(url.toString()));
    }
    return BodyReader.read(exchange, BODY_BYTES, true)
        .map(body -> SAYS_EXPIRED.matcher(body.toString()).find())
        .otherwise(false);
  }
}
