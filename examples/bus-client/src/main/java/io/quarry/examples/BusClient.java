package io.quarry.examples;

import io.quarry.bus.BusFailure;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Conversation;
import io.quarry.bus.User;
import io.quarry.client.ClusterSettings;
import io.quarry.client.Conversations;
import io.quarry.client.Datasets;
import io.quarry.client.QuarryBus;
import io.quarry.client.Queries;
import io.quarry.client.Turns;
import io.quarry.client.Usage;
import io.quarry.client.Users;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An application that uses Quarry over the event bus. It joins the cluster with the bus's TLS, makes a conversation,
 * adds a Parquet file to it, runs a query, asks a question and prints the answer as it streams, then the user's usage.
 *
 * <p>How to build and run it, and the settings it reads from the environment: this module's README.md, whose run
 * command {@code BusClientIT} runs as it stands.
 */
public final class BusClient {

  private final Users users;
  private final Conversations conversations;
  private final Datasets datasets;
  private final Queries queries;
  private final Turns turns;
  private final Usage usage;
  private final PrintStream out;

  public BusClient(Vertx vertx, PrintStream out) {
    this.users = new Users(vertx);
    this.conversations = new Conversations(vertx);
    this.datasets = new Datasets(vertx);
    this.queries = new Queries(vertx);
    this.turns = new Turns(vertx);
    this.usage = new Usage(vertx);
    this.out = out;
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: BusClient <parquet url> <question>");
      System.exit(2);
    }
    Vertx vertx = QuarryBus.join(settings()).await();
    try {
      new BusClient(vertx, System.out).run(System.getenv("USER_EMAIL"), args[0], args[1]).await();
    } catch (RuntimeException e) {
      BusFailure failure = BusFailure.of(e);
      System.err.println(failure.failure() + ": " + failure.message());
      System.exit(1);
    } finally {
      vertx.close().await();
    }
  }

  static ClusterSettings settings() {
    List<String> members = Arrays.stream(System.getenv("QUARRY_CLUSTER_MEMBERS").split(",")).map(String::strip).toList();
    ClusterSettings.Tls tls = new ClusterSettings.Tls(Path.of(System.getenv("APP_KEY_FILE")),
        Path.of(System.getenv("APP_CERT_FILE")), Path.of(System.getenv("QUARRY_CLUSTER_CA_FILE")));
    String port = System.getenv("APP_CLUSTER_PORT");
    return new ClusterSettings(System.getenv("QUARRY_CLUSTER_NAME"), members, System.getenv("APP_HOST"),
        port == null ? 0 : Integer.parseInt(port), tls);
  }

  /** {@code email}: whom to act for; null for the single user of a server in {@code auth.mode=local}. */
  public Future<Void> run(String email, String url, String question) {
    Future<User> user = email == null ? users.local() : users.find(email);
    return user.compose(u -> conversations.create(u.id(), "From the bus client")
        .compose(conversation -> work(u.id(), conversation, url, question)));
  }

  private Future<Void> work(String userId, Conversation conversation, String url, String question) {
    out.println("conversation " + conversation.id());
    return datasets.add(userId, conversation.id(), url)
        .compose(dataset -> {
          out.println("dataset " + dataset.name() + " (" + dataset.rowCount() + " rows)");
          return queries.run(userId, conversation.id(), "SELECT count(*) AS n FROM " + dataset.name());
        })
        .compose(result -> {
          out.println("query " + result.columnNames() + " " + result.rowValues().encode());
          return ask(userId, conversation.id(), question);
        })
        .compose(answer -> usage.get(userId))
        .map(budget -> {
          out.println("usage " + budget.tokensUsed() + " of " + budget.tokenLimit() + " tokens");
          return null;
        });
  }

  /** Follows the user's events first, so that no token passes unheard, then asks; ends with the answer. */
  private Future<Void> ask(String userId, String conversationId, String question) {
    Promise<Void> answered = Promise.promise();
    return turns.events(userId, event -> {
      if (!conversationId.equals(event.conversationId())) {
        return;
      }
      switch (event.type()) {
        case ChatEvents.CHAT_TOKEN -> out.print(event.token());
        case ChatEvents.CHAT_COMPLETE -> {
          out.println();
          out.println("answered (" + event.tokenCount() + " tokens)");
          answered.tryComplete();
        }
        case ChatEvents.CHAT_ERROR -> answered.tryFail(event.error());
        default -> { }
      }
    }).compose(events -> turns.start(userId, conversationId, question)
        .compose(started -> answered.future())
        .eventually(() -> events.unregister()));
  }
}
