#!/usr/bin/env bash
# Builds OpenTofu's `tofu` from the Go module github.com/opentofu/opentofu into a cache dir.
# Usage: build-tofu.sh <out-dir>   (env: TOFU_VERSION, GO_BUILD_PARALLEL, INFRARED_BUILD_PROGRESS)
# The wrapper module is generated here from opentofu's own go.mod: its go line, its godebug
# lines (which only take effect in the main module) and its one replace line for
# github.com/hashicorp/hcl/v2 (a fork; `go install ...@version` refuses modules with replace
# lines, hence the wrapper). Nothing is written into the git work tree.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-v1.10.10}"
OUT="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/infrared-devenv/tofu-$TOFU_VERSION}"
PAR="${GO_BUILD_PARALLEL:-2}"

command -v go >/dev/null || { echo "devenv: Go is not installed (need Go >= 1.26 to build tofu)" >&2; exit 127; }
export CGO_ENABLED=0 GOTOOLCHAIN="${GOTOOLCHAIN:-local}" GOFLAGS="-mod=mod"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/infrared-tofu-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT/bin"
# one build at a time per cache dir: a second caller waits, then finds the binary built
if command -v flock >/dev/null; then exec 9>"$OUT/.build.lock"; flock 9; fi
if [ -x "$OUT/bin/tofu" ]; then exit 0; fi
T0=$(date +%s)

cd "$WORK"
MODFILE="$(go mod download -json "github.com/opentofu/opentofu@$TOFU_VERSION" | awk -F'"' '$2=="GoMod"{print $4}')"
[ -f "$MODFILE" ] || { echo "devenv: could not download github.com/opentofu/opentofu@$TOFU_VERSION" >&2; exit 1; }
{
  echo "module infrared.local/tofu"
  echo
  awk '$1=="go"{print; exit}' "$MODFILE"
  echo
  # godebug: a single line, or a block up to its closing parenthesis
  awk '$1=="godebug" && $2=="(" {b=1} b{print} b && $1==")"{b=0; next} $1=="godebug" && $2!="(" {print}' "$MODFILE"
  echo
  echo "require github.com/opentofu/opentofu $TOFU_VERSION"
  echo
  awk '$1=="replace" && $2=="github.com/hashicorp/hcl/v2"' "$MODFILE"
} > go.mod
grep -q '^replace github.com/hashicorp/hcl/v2' go.mod || { echo "devenv: opentofu's go.mod has no hcl/v2 replace line" >&2; exit 1; }
echo "package tofu" > doc.go
echo "devenv: building tofu $TOFU_VERSION (a few minutes cold)" >&2
# INFRARED_BUILD_PROGRESS=1 (devenv prepare): how many packages, then each one as it compiles
VERBOSE=()
if [ "${INFRARED_BUILD_PROGRESS:-}" = 1 ]; then
  echo "devenv-progress: packages $(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' github.com/opentofu/opentofu/cmd/tofu | grep -c .)"
  VERBOSE=(-v)
fi
go build "${VERBOSE[@]}" -p "$PAR" -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
  -o "$WORK/tofu.bin" github.com/opentofu/opentofu/cmd/tofu
mv "$WORK/tofu.bin" "$OUT/bin/tofu"
T1=$(date +%s)
printf '{"tofuVersion":"%s","seconds":%d,"builtAt":"%s"}\n' "$TOFU_VERSION" $((T1-T0)) "$(date -u +%FT%TZ)" > "$OUT/build-timing.json"
echo "devenv: tofu ready in $OUT/bin" >&2
