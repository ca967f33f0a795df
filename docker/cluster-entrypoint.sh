#!/bin/sh
# Runs Quarry (java -jar /opt/quarry/quarry.jar, with this script's arguments) with QUARRY_CLUSTER_HOST set to
# this container's own IPv4 address, unless it is set already. Hazelcast and the clustered event bus listen on
# cluster.host, which must be an address of one of the container's interfaces, not a name, and a container
# learns its address only when it starts. compose.yaml uses this script as the entrypoint of every node.
set -eu

if [ -z "${QUARRY_CLUSTER_HOST:-}" ]; then
  # Docker puts HOSTNAME in the container's environment (dash does not set it itself).
  # shellcheck disable=SC3028
  name=${HOSTNAME:-$(cat /etc/hostname)}
  # Docker maps the container's name to its address in /etc/hosts; the first IPv4 answer is that address.
  address=$(getent ahostsv4 "$name" | head -n 1 | cut -d ' ' -f 1)
  case "$address" in
    '' | 127.*)
      echo "cluster-entrypoint: cannot tell this container's address (${name} resolves to '${address}');" \
        "set QUARRY_CLUSTER_HOST" >&2
      exit 1
      ;;
  esac
  QUARRY_CLUSTER_HOST=$address
  export QUARRY_CLUSTER_HOST
fi
echo "cluster-entrypoint: QUARRY_CLUSTER_HOST=${QUARRY_CLUSTER_HOST}" >&2

# The image's class archive fits the image's jar only: with another (QUARRY_JAR), Java says so in one line and starts
# without it.
exec java -XX:MaxRAMPercentage=25 -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
  -XX:SharedArchiveFile=/opt/quarry/quarry.jsa \
  -jar "${QUARRY_JAR:-/opt/quarry/quarry.jar}" "$@"
