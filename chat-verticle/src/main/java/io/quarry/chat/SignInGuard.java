package io.quarry.chat;

import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;

/**
 * Slows down password and invite guessing: failed sign-ins back off per account and per client address, failed
 * sign-ups per client address. A refused attempt gets 429 with {@code Retry-After}, whether or not the account
 * exists. Per account the back-off is short ({@code accountMaxBackoffMs}); per address it is long, which is where
 * guessing comes from. Strangers' failures could still keep an account backed off for good, one new address at a
 * time, so a browser with the account's {@link Devices device cookie} backs off per device instead of per account.
 */
final class SignInGuard {

  /** One attempt's keys, checked together and counted together, and the email it is for. */
  record Attempt(String email, List<String> keys, List<Throttle.Rule> rules) {
  }

  private final Throttle throttle;
  private final Devices devices;
  private final Throttle.Rule account;
  private final Throttle.Rule address;
  private final boolean trustProxy;

  SignInGuard(Throttle throttle, Devices devices, ChatSettings.SignIn rules) {
    this.throttle = throttle;
    this.devices = devices;
    this.account = rules.account();
    this.address = rules.address();
    this.trustProxy = rules.trustProxy();
  }

  /** From one of the account's devices, the device's back-off stands in for the account's; the address's stays. */
  Attempt signIn(RoutingContext ctx, String email) {
    String device = devices.trusted(ctx, email);
    String first = device == null ? "signin-account:" + email.toLowerCase(Locale.ROOT) : "signin-device:" + device;
    return new Attempt(email, List.of(first, "signin-address:" + client(ctx)), List.of(account, address));
  }

  Attempt signUp(RoutingContext ctx, String email) {
    return new Attempt(email, List.of("signup-address:" + client(ctx)), List.of(address));
  }

  /** Starts the attempt, or answers 429 and returns false when one of its keys must still wait. */
  boolean begin(RoutingContext ctx, Attempt attempt, String what) {
    long wait = attempt.keys().stream().mapToLong(throttle::waitMs).max().orElse(0);
    if (wait > 0) {
      long seconds = (wait + 999) / 1_000;
      ctx.response().putHeader("Retry-After", String.valueOf(seconds));
      HttpErrors.send(ctx, 429, "Too many failed " + what + " attempts; try again in " + seconds
          + (seconds == 1 ? " second" : " seconds"), null);
      return false;
    }
    for (int i = 0; i < attempt.keys().size(); i++) {
      throttle.count(attempt.keys().get(i), attempt.rules().get(i));
    }
    return true;
  }

  /**
   * The attempt went well: the account (or the device) starts afresh, the address gets its attempt back, and this
   * browser becomes a device of the account.
   */
  void succeeded(RoutingContext ctx, Attempt attempt) {
    for (int i = 0; i < attempt.keys().size(); i++) {
      if (attempt.rules().get(i) == account) {
        throttle.succeeded(attempt.keys().get(i));
      } else {
        throttle.forgive(attempt.keys().get(i), attempt.rules().get(i));
      }
    }
    devices.remember(ctx, attempt.email());
  }

  /** The client's address: the connection's, or with {@code trustProxy} the one the proxy in front saw. */
  private String client(RoutingContext ctx) {
    String forwarded = trustProxy ? ctx.request().getHeader("X-Forwarded-For") : null;
    if (forwarded != null && !forwarded.isBlank()) {
      String[] hops = forwarded.split(",");
      return hops[hops.length - 1].strip();
    }
    return ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().host();
  }
}
