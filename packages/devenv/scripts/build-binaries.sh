#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager and etcd from Go modules into a cache dir.
# Usage: build-binaries.sh <out-dir>   (env: K8S_VERSION, ETCD_VERSION, GO_BUILD_PARALLEL)
# The wrapper go.mod files are generated here; nothing is written into the git work tree.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-v1.37.2}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
OUT="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/infrared-devenv/$K8S_VERSION}"
PAR="${GO_BUILD_PARALLEL:-2}"

command -v go >/dev/null || { echo "devenv: Go is not installed (need Go >= 1.26)" >&2; exit 127; }
export CGO_ENABLED=0 GOTOOLCHAIN="${GOTOOLCHAIN:-local}" GOFLAGS="-mod=mod"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/infrared-devenv-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT/bin"
# one build at a time per cache dir: a second caller waits, then finds the binaries built
if command -v flock >/dev/null; then exec 9>"$OUT/.build.lock"; flock 9; fi
now() { date +%s; }
T0=$(now)

# --- etcd: a one-line main calling etcdmain.Main ---------------------------------------------
if [ ! -x "$OUT/bin/etcd" ]; then
  mkdir -p "$WORK/etcd" && cd "$WORK/etcd"
  cat > go.mod <<MOD
module infrared.local/etcd

go 1.26.0

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
MOD
  cat > main.go <<'SRC'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
SRC
  echo "devenv: building etcd $ETCD_VERSION" >&2
  go mod tidy
  go build -p "$PAR" -trimpath -ldflags "-s -w" -o "$WORK/etcd.bin" .
  mv "$WORK/etcd.bin" "$OUT/bin/etcd"
fi
T1=$(now)

# --- kube-apiserver + kube-controller-manager from k8s.io/kubernetes --------------------------
if [ ! -x "$OUT/bin/kube-apiserver" ] || [ ! -x "$OUT/bin/kube-controller-manager" ]; then
  mkdir -p "$WORK/kube" && cd "$WORK/kube"
  MODFILE="$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | awk -F'"' '$2=="GoMod"{print $4}')"
  MINOR="${K8S_VERSION#v1.}"; MINOR="${MINOR%%.*}"
  PATCH="${K8S_VERSION##*.}"
  STAGING="v0.${MINOR}.${PATCH}"
  GOLINE="$(awk '$1=="go"{print; exit}' "$MODFILE")"
  {
    echo "module infrared.local/kube"
    echo
    echo "$GOLINE"
    echo
    awk '$1=="godebug"' "$MODFILE"
    echo
    echo "require k8s.io/kubernetes $K8S_VERSION"
    echo
    echo "replace ("
    awk -v v="$STAGING" '$2=="v0.0.0"{print "\t" $1 " => " $1 " " v}' "$MODFILE"
    echo ")"
  } > go.mod
  echo "package kube" > doc.go
  VPKG=k8s.io/component-base/version
  LDF="-s -w -X $VPKG.gitVersion=$K8S_VERSION -X $VPKG.gitMajor=1 -X $VPKG.gitMinor=$MINOR -X $VPKG.gitTreeState=clean"
  echo "devenv: building kube-apiserver and kube-controller-manager $K8S_VERSION (10-20 min cold)" >&2
  go build -p "$PAR" -trimpath -ldflags "$LDF" -o "$WORK/out/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
  mv "$WORK/out/kube-apiserver" "$WORK/out/kube-controller-manager" "$OUT/bin/"
fi
T2=$(now)

printf '{"k8sVersion":"%s","etcdVersion":"%s","etcdSeconds":%d,"kubeSeconds":%d,"totalSeconds":%d,"builtAt":"%s"}\n' \
  "$K8S_VERSION" "$ETCD_VERSION" $((T1-T0)) $((T2-T1)) $((T2-T0)) "$(date -u +%FT%TZ)" > "$OUT/build-timing.json"
echo "devenv: binaries ready in $OUT/bin" >&2
