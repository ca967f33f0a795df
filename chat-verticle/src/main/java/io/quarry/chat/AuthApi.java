package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.SessionEnds;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;

/** Sign-up (with an invite), sign-in and sign-out for {@code auth.mode=password}. */
final class AuthApi {

  static final String INVITE_REQUIRED = "An invite is required for new accounts";
  static final String BAD_CREDENTIALS = "Invalid email or password";
  static final int MIN_PASSWORD = 8;
  static final int MAX_PASSWORD = 200;
  /** Read before anyone is known: room for the longest email, password and invite, each in 4-byte UTF-8. */
  static final int MAX_BODY_BYTES = 4096;

  private final StorageClient storage;
  private final String mode;
  private final SignInGuard guard;
  private final Passwords passwords;
  private final CommonPasswords common;

  AuthApi(StorageClient storage, String mode, SignInGuard guard, Passwords passwords, CommonPasswords common) {
    this.storage = storage;
    this.mode = mode;
    this.guard = guard;
    this.passwords = passwords;
    this.common = common;
  }

  void mount(Router router) {
    router.post("/api/auth/signup").handler(this::signUp);
    router.post("/api/auth/signin").handler(this::signIn);
    router.post("/api/auth/signout").handler(this::signOut);
    for (String path : new String[] {"/api/auth/signup", "/api/auth/signin", "/api/auth/signout"}) {
      Routes.allowOnly(router, path, HttpMethod.POST);
    }
  }

  private void signUp(RoutingContext ctx) {
    requirePasswordMode();
    JsonObject body = Bodies.object(ctx);
    String email = email(body);
    String password = password(body);
    String invite = Bodies.optionalString(body, "invite", 200);
    if (invite == null || invite.isBlank()) {
      throw QuarryException.badRequest(INVITE_REQUIRED);
    }
    SignInGuard.Attempt attempt = guard.signUp(ctx, email);
    if (!guard.begin(ctx, attempt, "sign-up")) {
      return;
    }
    // The invite first: a guessed one costs no hash.
    storage.inviteUsable(invite.strip())
        .compose(usable -> usable ? passwords.hash(password)
            : Future.failedFuture(QuarryException.badRequest(StorageClient.INVITE_REFUSED)))
        .compose(hash -> storage.createUser(email, hash, invite.strip()))
        .compose(user -> startSession(ctx, user))
        .onSuccess(user -> {
          guard.succeeded(ctx, attempt);
          Replies.json(ctx, 201, user.toJson());
        })
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  private void signIn(RoutingContext ctx) {
    requirePasswordMode();
    JsonObject body = Bodies.object(ctx);
    String email = Bodies.requiredString(body, "email", 254).strip();
    String password = Bodies.requiredString(body, "password", MAX_PASSWORD);
    SignInGuard.Attempt attempt = guard.signIn(ctx, email);
    if (!guard.begin(ctx, attempt, "sign-in")) {
      return;
    }
    storage.credentials(email)
        .recover(e -> Failure.classify(e) == Failure.NOT_FOUND ? Future.succeededFuture(null) : Future.failedFuture(e))
        .compose(found -> passwords.matches(password, found == null ? null : found.passwordHash())
            .compose(ok -> ok ? Future.succeededFuture(found.user())
                : Future.failedFuture(new QuarryException(Failure.UNAUTHORIZED, BAD_CREDENTIALS))))
        .compose(user -> startSession(ctx, user))
        .onSuccess(user -> {
          guard.succeeded(ctx, attempt);
          Replies.json(ctx, 200, user.toJson());
        })
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  private void signOut(RoutingContext ctx) {
    String token = Sessions.token(ctx);
    Future<Void> ended = token == null ? Future.succeededFuture() : storage.deleteSession(Sessions.hash(token))
        .onSuccess(v -> SessionEnds.publish(ctx.vertx().eventBus(), Sessions.hash(token)));
    ended.onSuccess(v -> {
      Sessions.clear(ctx);
      Replies.json(ctx, 200, new JsonObject().put("signed_out", true));
    }).onFailure(e -> HttpErrors.respond(ctx, e));
  }

  private Future<User> startSession(RoutingContext ctx, User user) {
    String token = Sessions.newToken();
    String expires = Timestamps.format(Instant.now().plus(Sessions.LIFETIME));
    return storage.createSession(user.id(), Sessions.hash(token), expires).map(v -> {
      Sessions.set(ctx, token);
      return user;
    });
  }

  private void requirePasswordMode() {
    if (!Auth.PASSWORD.equals(mode)) {
      throw QuarryException.badRequest("Accounts are off: this server runs in auth.mode=local for one person");
    }
  }

  private static String email(JsonObject body) {
    String email = Bodies.requiredString(body, "email", 254).strip();
    if (!email.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
      throw QuarryException.badRequest("Field 'email' must be an email address");
    }
    return email;
  }

  private String password(JsonObject body) {
    String password = Bodies.requiredString(body, "password", MAX_PASSWORD);
    if (password.length() < MIN_PASSWORD) {
      throw QuarryException.badRequest("Field 'password' must be at least " + MIN_PASSWORD + " characters");
    }
    if (common.contains(password)) {
      throw QuarryException.badRequest(CommonPasswords.TOO_COMMON);
    }
    return password;
  }
}
