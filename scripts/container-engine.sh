#!/usr/bin/env bash
# A real container engine for the tests that need one (`test/unit/workspaceContainer.test.ts`'s "a real container",
# `test/unit/containerEngine.test.ts`): makes `docker info` answer on this machine and builds the test image, from
# Debian packages only (no registry can be reached, so no image is ever pulled). Idempotent: each step is skipped when
# its result is already there. Run as root (or with sudo), on Debian/Ubuntu; CI runs it from `.ci/run`.
#
#   bash scripts/container-engine.sh        # exit 0: the engine answers and the image exists
#                                           # exit 1: the reason on stderr; the tests then skip, naming it
#
# Steps (figures from a 2-core Firecracker VM, kernel 6.18, cgroup v1):
#   1. `apt-get install docker.io busybox-static` when either is missing (dockerd, containerd, runc; about 70 s).
#   2. `dockerd --iptables=false --bridge=none` in the background when `docker info` does not answer: no default
#      bridge and no firewall rules, so the machine's networking is left as it is (the tests' containers run with
#      `--network=none`). Its own session, so it outlives this script; log in $SIDEKICKS_DOCKERD_LOG, default
#      /tmp/sidekicks-dockerd.log; about 1 s. When it does not answer within 30 s it is stopped and started again
#      with `--storage-driver=vfs` (no overlayfs).
#   3. The image $SIDEKICKS_TEST_IMAGE (default `sidekicks-test:local`, about 106 MB, about 1 s) by `docker import` of
#      a root folder made from this machine's files: the static busybox (sh, cat, sleep, id…) and the `node` on the
#      PATH with the shared libraries `ldd` names, so the tests' fake ACP agent (a Node script) runs inside. It is
#      built again when its label `sidekicks.node` is not this machine's `node --version`.
set -uo pipefail

image=${SIDEKICKS_TEST_IMAGE:-sidekicks-test:local}
log=${SIDEKICKS_DOCKERD_LOG:-/tmp/sidekicks-dockerd.log}
say() { echo "[container-engine] $*"; }
fail() {
  echo "[container-engine] $*" >&2
  exit 1
}
as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi
}
installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }
answers() { timeout 20 docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; }

# 1. Packages.
[[ $(uname -s) == Linux ]] || fail "not Linux: $(uname -s)"
missing=()
for package in docker.io busybox-static; do installed "$package" || missing+=("$package"); done
if ((${#missing[@]} > 0)); then
  started=$SECONDS
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! as_root apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/sidekicks-engine-apt.log 2>&1; then
    as_root apt-get update >>/tmp/sidekicks-engine-apt.log 2>&1
    as_root apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/sidekicks-engine-apt.log 2>&1 ||
      fail "apt-get install ${missing[*]} failed: $(tail -n 3 /tmp/sidekicks-engine-apt.log | tr '\n' ' ')"
  fi
  say "installed in $((SECONDS - started)) s"
fi
command -v docker >/dev/null || fail "no docker command after installing docker.io"

# 2. The daemon.
start_dockerd() {
  # setsid + every stream redirected: the daemon belongs to no terminal and holds no pipe of whoever ran this script.
  if [[ $(id -u) -eq 0 ]]; then
    setsid dockerd "$@" </dev/null >>"$log" 2>&1 &
  else
    sudo -n setsid dockerd "$@" </dev/null >>"$log" 2>&1 &
  fi
  local pid=$! waited
  for ((waited = 0; waited < 30; waited++)); do
    if answers; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
  done
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  return 1
}
if ! answers; then
  started=$SECONDS
  say "starting dockerd (log: $log)"
  if ! start_dockerd --iptables=false --bridge=none; then
    say "dockerd did not answer: $(grep -E 'level=(error|fatal)|failed' "$log" | tail -n 1)"
    say "starting dockerd again with --storage-driver=vfs"
    start_dockerd --iptables=false --bridge=none --storage-driver=vfs ||
      fail "dockerd does not start: $(grep -E 'level=(error|fatal)|failed' "$log" | tail -n 2 | tr '\n' ' ')"
  fi
  say "dockerd answers after $((SECONDS - started)) s"
fi

# 3. The image.
node_bin=$(command -v node) || fail "no node on the PATH to put in the image"
node_bin=$(readlink -f "$node_bin")
node_version=$("$node_bin" --version)
have=$(docker image inspect --format '{{index .Config.Labels "sidekicks.node"}}' "$image" 2>/dev/null)
if [[ $have != "$node_version" ]]; then
  started=$SECONDS
  say "building $image (busybox + node $node_version)"
  root=$(mktemp -d) || fail "mktemp failed"
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root"/bin "$root"/usr/local/bin "$root"/etc "$root"/tmp "$root"/workspace && chmod 1777 "$root"/tmp
  cp /bin/busybox "$root"/bin/busybox || fail "no /bin/busybox (busybox-static)"
  for applet in $(/bin/busybox --list); do [[ -e $root/bin/$applet ]] || ln -s busybox "$root/bin/$applet"; done
  cp "$node_bin" "$root"/usr/local/bin/node
  for lib in $(ldd "$node_bin" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || fail "cannot copy $lib"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$root"/etc/passwd
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root"/etc/group
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change "LABEL sidekicks.node=$node_version" \
    --change 'WORKDIR /workspace' - "$image" >/dev/null || fail "docker import of $image failed"
  docker run --rm --network=none "$image" node -e 'process.exit(0)' || fail "node does not run in $image"
  say "built $image in $((SECONDS - started)) s"
fi
say "ready: docker $(docker info --format '{{.ServerVersion}}' 2>/dev/null), image $image"
