#!/usr/bin/env bash
# Makes the event-bus certificates compose.yaml mounts, with the README's openssl recipe: a cluster CA
# (certs/ca.pem, its key certs/ca-key.pem) and, for each node, certs/NODE.pem and certs/NODE-key.pem signed by it.
#
#   docker/make-certs.sh [DIR [NODE ...]]      # default: certs quarry worker-1 worker-2
#
# An existing CA is reused (a node added later joins the same cluster) and existing node files are kept.
# The nodes run as uid 10001 in their containers and must be able to read their own key: run as root, this
# script gives each key to uid 10001 (mode 0600); run as another user it makes the keys readable by all
# (0644), which is enough on a single-user machine. The CA's key is never mounted into a container: keep it
# offline once the nodes have their files.
set -euo pipefail

dir=${1:-certs}
shift || true
nodes=("$@")
if [ ${#nodes[@]} -eq 0 ]; then
  nodes=(quarry worker-1 worker-2)
fi

mkdir -p "$dir"
chmod 0755 "$dir"
# Keys must never be committed.
[ -e "$dir/.gitignore" ] || printf '*\n' > "$dir/.gitignore"
umask 077

if [ ! -f "$dir/ca.pem" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
    -subj /CN=quarry-cluster-ca -keyout "$dir/ca-key.pem" -out "$dir/ca.pem" 2>/dev/null
  chmod 0644 "$dir/ca.pem"
  echo "made the cluster CA: $dir/ca.pem (its key: $dir/ca-key.pem)"
fi

for node in "${nodes[@]}"; do
  if [ -f "$dir/$node.pem" ] && [ -f "$dir/$node-key.pem" ]; then
    echo "kept $dir/$node.pem and $dir/$node-key.pem"
    continue
  fi
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$node" \
    -keyout "$dir/$node-key.pem" -out "$dir/$node.csr" 2>/dev/null
  openssl x509 -req -in "$dir/$node.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca-key.pem" -CAcreateserial -days 825 \
    -extfile <(printf 'extendedKeyUsage=serverAuth,clientAuth') -out "$dir/$node.pem" 2>/dev/null
  rm -f "$dir/$node.csr"
  chmod 0644 "$dir/$node.pem"
  if [ "$(id -u)" -eq 0 ]; then
    chown 10001:10001 "$dir/$node-key.pem"
    chmod 0600 "$dir/$node-key.pem"
  else
    chmod 0644 "$dir/$node-key.pem"
  fi
  echo "made $dir/$node.pem and $dir/$node-key.pem"
done

if [ "$(id -u)" -ne 0 ]; then
  echo "note: the node keys are readable by every user of this machine (the containers' uid 10001 must read them);" \
    "on a shared machine run this script as root instead, which gives them to uid 10001 alone" >&2
fi
