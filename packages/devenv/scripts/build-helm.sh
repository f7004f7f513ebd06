#!/usr/bin/env bash
# Builds Helm's `helm` from the Go module helm.sh/helm/v3 into a cache dir (no Debian package exists).
# Usage: build-helm.sh <out-dir>   (env: HELM_VERSION, GO_BUILD_PARALLEL)
# helm's go.mod has no replace lines, so `go install ...@version` builds it as released, with the
# ldflags of helm's Makefile (its version, and the Kubernetes version `helm lint` and
# `helm template` assume, from its k8s.io/client-go). Nothing is written into the git work tree.
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-v3.22.0}"
OUT="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/infrared-devenv/helm-$HELM_VERSION}"
PAR="${GO_BUILD_PARALLEL:-2}"

command -v go >/dev/null || { echo "devenv: Go is not installed (need Go >= 1.26 to build helm)" >&2; exit 127; }
export CGO_ENABLED=0 GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

mkdir -p "$OUT/bin"
# one build at a time per cache dir: a second caller waits, then finds the binary built
if command -v flock >/dev/null; then exec 9>"$OUT/.build.lock"; flock 9; fi
if [ -x "$OUT/bin/helm" ]; then exit 0; fi
T0=$(date +%s)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/infrared-helm-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
MODFILE="$(go mod download -json "helm.sh/helm/v3@$HELM_VERSION" | awk -F'"' '$2=="GoMod"{print $4}')"
[ -f "$MODFILE" ] || { echo "devenv: could not download helm.sh/helm/v3@$HELM_VERSION" >&2; exit 1; }
# k8s.io/client-go v0.M.m serves Kubernetes 1.m: helm's Makefile passes it the same way
K8S_MINOR="$(awk '$1=="k8s.io/client-go"{split($2, v, "."); print v[2]; exit}' "$MODFILE")"
[ -n "$K8S_MINOR" ] || { echo "devenv: helm's go.mod names no k8s.io/client-go" >&2; exit 1; }
LDFLAGS="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in pkg/lint/rules pkg/chartutil; do
  LDFLAGS="$LDFLAGS -X helm.sh/helm/v3/$pkg.k8sVersionMajor=1 -X helm.sh/helm/v3/$pkg.k8sVersionMinor=$K8S_MINOR"
done
echo "devenv: building helm $HELM_VERSION (a few minutes cold)" >&2
GOBIN="$WORK/bin" go install -p "$PAR" -trimpath -ldflags "$LDFLAGS" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
mv "$WORK/bin/helm" "$OUT/bin/helm"
T1=$(date +%s)
printf '{"helmVersion":"%s","seconds":%d,"builtAt":"%s"}\n' "$HELM_VERSION" $((T1-T0)) "$(date -u +%FT%TZ)" > "$OUT/build-timing.json"
echo "devenv: helm ready in $OUT/bin" >&2
