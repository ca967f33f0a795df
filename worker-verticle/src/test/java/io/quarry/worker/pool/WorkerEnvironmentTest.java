package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A worker process runs users' SQL: what it is given of its node's environment and settings. */
class WorkerEnvironmentTest {

  @Test
  @DisplayName("a worker gets only the variables it needs: no key, password or token of its node, whatever its name")
  void variables() {
    Map<String, String> node = new java.util.HashMap<>(Map.of("OPENAI_API_KEY", "sk-1", "GEMINI_API_KEY", "g-1",
        "SOME_DB_PASSWORD", "pw", "MY_TOKEN", "t", "AWS_SECRET_ACCESS_KEY", "s", "QUARRY_DATABASE_PASSWORD", "q",
        "DATABASE_URL", "postgres://u:pw@db/x", "JAVA_TOOL_OPTIONS", "-Da.password=x", "LD_PRELOAD", "/x.so"));
    node.putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/quarry", "LANG", "C.UTF-8", "LC_ALL", "C.UTF-8",
        "TZ", "Europe/Paris", "QUARRY_LOG_FORMAT", "json", "QUARRY_LOG_LEVEL", "DEBUG", "MALLOC_ARENA_MAX", "8"));

    assertThat(WorkerEnvironment.variables(node)).containsExactlyInAnyOrderEntriesOf(Map.of("PATH", "/usr/bin:/bin",
        "HOME", "/home/quarry", "LANG", "C.UTF-8", "LC_ALL", "C.UTF-8", "TZ", "Europe/Paris", "QUARRY_LOG_FORMAT", "json",
        "QUARRY_LOG_LEVEL", "DEBUG", "MALLOC_ARENA_MAX", "2"));
  }

  @Test
  @DisplayName("the node's -D settings reach its workers but for those whose name says password, secret, token, key")
  void properties() {
    List<String> node = List.of("-Xmx512m", "-Djdk.net.hosts.file=/tmp/hosts", "-Dvertx.disableDnsResolver=true",
        "-Djavax.net.ssl.trustStore=/etc/trust.p12", "-Djavax.net.ssl.keyStore=/etc/node.p12",
        "-Djavax.net.ssl.keyStorePassword=changeit", "-Djavax.net.ssl.trustStorePassword=changeit",
        "-Dmy.db.passwd=pw", "-Dapp.apiKey=k", "-DGITHUB_TOKEN=t", "-Dclient.secret=s", "-Dcloud.credentials=c",
        "-Dproxy.auth=a", "-Dflag", "--add-opens", "java.base/java.lang=ALL-UNNAMED");

    assertThat(WorkerEnvironment.properties(node)).containsExactly("-Djdk.net.hosts.file=/tmp/hosts",
        "-Dvertx.disableDnsResolver=true", "-Djavax.net.ssl.trustStore=/etc/trust.p12", "-Dflag");
  }
}
