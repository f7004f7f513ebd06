#!/usr/bin/env bash
# Builds Argo CD's one binary from the Go module github.com/argoproj/argo-cd/v3 into a cache dir,
# with the component names argocd-server, argocd-repo-server and argocd-application-controller as
# symlinks to it (the binary's name picks the component), and Argo CD's helper scripts from the
# module's hack/ (what Argo CD's image puts on the repo-server's PATH).
# Usage: build-argocd.sh <out-dir>   (env: ARGOCD_VERSION, ARGOCD_GOTOOLCHAIN, GO_BUILD_PARALLEL,
# INFRARED_BUILD_PROGRESS)
# The wrapper module is generated here, in a temporary dir, from argo-cd's own go.mod: its go line
# and its replace (...) block verbatim, minus the local `gitops-engine => ./gitops-engine` line
# (github.com/argoproj/argo-cd/gitops-engine/v3 at the same version then comes from the module
# proxy). argo-cd declares go 1.27.x, so the build runs with GOTOOLCHAIN=go1.27.3 (Go downloads
# that toolchain as a module). Nothing is written into the git work tree.
set -euo pipefail

ARGOCD_VERSION="${ARGOCD_VERSION:-v3.6.1}"
OUT="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/infrared-devenv/argocd-$ARGOCD_VERSION}"
PAR="${GO_BUILD_PARALLEL:-2}"
MOD=github.com/argoproj/argo-cd/v3

command -v go >/dev/null || { echo "devenv: Go is not installed (need Go >= 1.26 to build Argo CD)" >&2; exit 127; }
export CGO_ENABLED=0 GOTOOLCHAIN="${ARGOCD_GOTOOLCHAIN:-go1.27.3}" GOFLAGS="-mod=mod"

mkdir -p "$OUT/bin"
# one build at a time per cache dir: a second caller waits, then finds the binary built
if command -v flock >/dev/null; then exec 9>"$OUT/.build.lock"; flock 9; fi
if [ -x "$OUT/bin/argocd" ] && [ -x "$OUT/bin/git-verify-wrapper.sh" ]; then exit 0; fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/infrared-argocd-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
T0=$(date +%s)

cd "$WORK"
JSON="$(go mod download -json "$MOD@$ARGOCD_VERSION")"
MODFILE="$(printf '%s\n' "$JSON" | awk -F'"' '$2=="GoMod"{print $4}')"
MODDIR="$(printf '%s\n' "$JSON" | awk -F'"' '$2=="Dir"{print $4}')"
[ -f "$MODFILE" ] && [ -d "$MODDIR" ] || { echo "devenv: could not download $MOD@$ARGOCD_VERSION" >&2; exit 1; }
{
  echo "module infrared.local/argocd"
  echo
  awk '$1=="go"{print; exit}' "$MODFILE"
  echo
  echo "require ("
  echo "	$MOD $ARGOCD_VERSION"
  echo "	github.com/argoproj/argo-cd/gitops-engine/v3 $ARGOCD_VERSION"
  echo ")"
  echo
  # every replace line and block, verbatim, except those pointing into argo-cd's own tree (./...)
  awk '
    $1=="replace" && $2=="(" {b=1; print; next}
    b && $1==")" {b=0; print; next}
    b { if ($0 ~ /=>[ \t]*\.\.?\//) next; print; next }
    $1=="replace" { if ($0 ~ /=>[ \t]*\.\.?\//) next; print }
  ' "$MODFILE"
} > go.mod
grep -q 'k8s.io/client-go =>' go.mod || { echo "devenv: argo-cd's go.mod has no replace block for k8s.io" >&2; exit 1; }
if grep -q '=> *\./' go.mod; then echo "devenv: a local replace line is left in the wrapper" >&2; exit 1; fi
echo "package argocd" > doc.go
KUBECTL="$(awk '$1=="k8s.io/kubectl" && $2 ~ /^v/ {print $2; exit}' "$MODFILE")"
P=$MOD/common
LDFLAGS="-s -w -X $P.version=${ARGOCD_VERSION#v} -X $P.gitTag=$ARGOCD_VERSION -X $P.gitTreeState=clean"
LDFLAGS="$LDFLAGS -X $P.gitCommit=gomodule-$ARGOCD_VERSION -X $P.buildDate=$(date -u +%FT%TZ) -X $P.kubectlVersion=$KUBECTL"
echo "devenv: building Argo CD $ARGOCD_VERSION with $GOTOOLCHAIN (about 14 min cold on 2 cores)" >&2
# INFRARED_BUILD_PROGRESS=1 (devenv prepare): how many packages, then each one as it compiles
VERBOSE=()
if [ "${INFRARED_BUILD_PROGRESS:-}" = 1 ]; then
  echo "devenv-progress: packages $(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' "$MOD/cmd" | grep -c .)"
  VERBOSE=(-v)
fi
GODEBUG="tarinsecurepath=0,zipinsecurepath=0" \
  go build "${VERBOSE[@]}" -p "$PAR" -trimpath -ldflags "$LDFLAGS" -o "$WORK/argocd.bin" "$MOD/cmd"

# the helper scripts Argo CD's image puts on PATH (Dockerfile: hack/git-verify-wrapper.sh etc.)
for s in git-verify-wrapper.sh gpg-wrapper.sh git-ask-pass.sh; do
  if [ -f "$MODDIR/hack/$s" ]; then install -m 0755 "$MODDIR/hack/$s" "$OUT/bin/$s"; fi
done
mv "$WORK/argocd.bin" "$OUT/bin/argocd"
for c in argocd-server argocd-repo-server argocd-application-controller argocd-cmp-server; do
  ln -sfn argocd "$OUT/bin/$c"
done
T1=$(date +%s)
printf '{"argocdVersion":"%s","toolchain":"%s","seconds":%d,"bytes":%d,"builtAt":"%s"}\n' \
  "$ARGOCD_VERSION" "$GOTOOLCHAIN" $((T1-T0)) "$(stat -c %s "$OUT/bin/argocd")" "$(date -u +%FT%TZ)" > "$OUT/build-timing.json"
echo "devenv: Argo CD ready in $OUT/bin" >&2
