# syntax=docker/dockerfile:1
#
# Quarry's container image: one image for every node (web, llm, dataset, storage, worker); a node's
# worker processes are started from the same jar inside its container.
#
#   docker build -t quarry .                                  # the runtime image (the last stage)
#   docker build --target test -t quarry-test .               # an image that runs `mvn -B verify` (see below)
#
# Needs BuildKit (the default builder since Docker 23): the build stage uses a cache mount.
#
# The image keeps Quarry's defaults, so on its own it serves `local` mode on the container's loopback,
# which nothing outside the container can reach. To use it, say so explicitly:
#
#   docker run -p 127.0.0.1:8080:8080 -v quarry-data:/data \
#     -e QUARRY_HTTP_HOST=0.0.0.0 -e QUARRY_AUTH_MODE=password -e GEMINI_API_KEY quarry
#
# (`local` mode refuses any address but loopback, so 0.0.0.0 needs `password` mode.) compose.yaml runs a
# small cluster.

ARG MAVEN_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre
ARG TEST_IMAGE=debian:bookworm

# ---------------------------------------------------------------------------------------------------------------
# build: the README's build command, on JDK 17.
#
# Dependencies are cached with a BuildKit cache mount on ~/.m2, kept by the builder between builds, so a
# change to the sources downloads nothing again. (Not `mvn dependency:go-offline` over the poms alone: the
# modules depend on one another at 0.1.0-SNAPSHOT, which is in no repository until the reactor builds it,
# and go-offline does not fetch what plugins resolve while they run.) The cache is not part of any image.
FROM ${MAVEN_IMAGE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,id=quarry-m2,target=/root/.m2 \
    mvn -B -DskipTests package

# ---------------------------------------------------------------------------------------------------------------
# test: the whole suite, `mvn -B verify`, which needs Chromium (the browser tests drive /usr/bin/chromium) and
# PostgreSQL's server (the storage suite runs a second time over a server it starts with initdb/pg_ctl, as the
# `postgres` user when run as root). Debian, as in CI: Ubuntu, under the Maven image, ships Chromium only as a
# snap, which does not run in a container. The suite runs when the container runs, not while the image
# builds, so that it gets the shared memory Chromium needs and its result is never a cached layer:
#
#   docker build --target test -t quarry-test .
#   docker run --rm --shm-size=1g -v quarry-m2:/root/.m2 quarry-test
#
# CI=true makes the browser tests fail rather than skip if Chromium is missing, as in CI. The test that mounts
# a tmpfs skips without CAP_SYS_ADMIN. The suite starts many JVMs (the failover test runs nine): give Docker
# at least 2 cores and 8 GB.
FROM ${TEST_IMAGE} AS test
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates openjdk-17-jdk-headless maven chromium postgresql \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
ENV CI=true
CMD ["mvn", "-B", "verify"]

# ---------------------------------------------------------------------------------------------------------------
# runtime: JRE 17, an unprivileged account, the jar and nothing else. The last stage, so the default target.
FROM ${RUNTIME_IMAGE} AS runtime

# A fixed uid/gid (10001), so that files on volumes and bind mounts can be given to it. A fresh named volume on
# /data takes the ownership of the image's /data; a bind-mounted directory must be owned by uid 10001 and writable
# by no one else (Quarry refuses a data directory another account could write).
RUN groupadd --system --gid 10001 quarry \
 && useradd --system --uid 10001 --gid quarry --create-home --home-dir /home/quarry \
      --shell /usr/sbin/nologin quarry \
 && install -d -o quarry -g quarry -m 0700 /data

COPY --from=build /src/app/target/quarry.jar /opt/quarry/quarry.jar
# The classes a node loads as it starts, archived by this image's Java for this jar (the only pair the archive fits):
# a node maps them instead of loading and verifying them, and is ready in about half the time. The command starts a
# node of the built-in defaults on the build's loopback and stops it (README, "A faster start"), under the collector
# and heap setting the node runs with (below): an archive fits one layout of objects.
RUN java -XX:MaxRAMPercentage=25 -XX:+UseG1GC -jar /opt/quarry/quarry.jar class-archive /opt/quarry/quarry.jsa
# For compose.yaml: sets QUARRY_CLUSTER_HOST to the container's own address, then runs the jar.
COPY --chmod=0755 docker/cluster-entrypoint.sh /opt/quarry/cluster-entrypoint.sh

# The SQLite file (default storage) and every worker's Parquet cache and spill files live under /data.
# (The base image also sets LANG=en_US.UTF-8, which Java 17 takes its default charset from: keep a UTF-8
# locale if you change the base, or the UI's files are served as US-ASCII.)
ENV QUARRY_DATA_DIR=/data
VOLUME ["/data"]

# Settings come from the environment (QUARRY_*); a file mounted at /opt/quarry/conf/config.json is read as
# well (the working directory's conf/config.json, as outside a container).
WORKDIR /opt/quarry
USER 10001:10001

# 8080: HTTP (QUARRY_HTTP_PORT). 9464: the Prometheus metrics listener (QUARRY_METRICS_PORT). Both listen on
# 127.0.0.1 unless QUARRY_HTTP_HOST / QUARRY_METRICS_HOST say 0.0.0.0.
EXPOSE 8080 9464

# No HEALTHCHECK here: a worker-only node from this image serves no HTTP. compose.yaml checks the web node.
# Replaces the base image's entrypoint (which only imports extra CA certificates when USE_SYSTEM_CA_CERTS is
# set): java is the container's main process and gets its SIGTERM, which stops the node in order (at most 30 s;
# give `docker stop` more than its default 10 s, e.g. --time 40).
# The node's heap is a deliberate quarter of the container's memory limit (the rest is for its worker processes,
# which size their own heaps and caps), and a node that runs out of it ends rather than limping on.
# G1, named so that a container of one CPU or under 1.8 GB does not get the serial collector by the JVM's ergonomics:
# with 200 answers streaming on two cores the relay's p99 was 4.6-12.9 ms under G1 against 12.6-59.6 ms under ZGC,
# ZGC the longer in each of five paired runs (bench/run.sh chat; README, "The collector", for the earlier day when
# ZGC's was the shorter), and G1 holds an idle node in about 260 MB where ZGC's resident size reads some 400.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=25", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
  "-XX:SharedArchiveFile=/opt/quarry/quarry.jsa", "-jar", "/opt/quarry/quarry.jar"]
