#!/usr/bin/env bash
# Builds the documentation of Assemblage and AssemblageScenes with Swift-DocC, and fails on any warning
# (a broken symbol link, an unknown article, a malformed directive).
#
#   scripts/build-docs.sh                # both catalogs; archives under Docs/.build/plugins/Swift-DocC/outputs/
#   scripts/build-docs.sh Assemblage     # one target
#
# The Swift-DocC plugin lives in the separate package `Docs/` (which depends on the library by path), so that
# users of Assemblage never resolve it. Requires `docc` from the Swift toolchain (it ships with Swift 6).
# To look at the result: `docc preview Sources/Assemblage/Assemblage.docc` needs symbol graphs; simpler,
# serve the archive's folder with any static file server, or open it in Xcode.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(Assemblage AssemblageProperties AssemblageScenes); fi

status=0
for target in "${targets[@]}"; do
    echo "== documentation for $target"
    log=$(mktemp)
    # --warnings-as-errors makes docc fail on a warning; the grep below also catches warnings that the
    # plugin or the symbol-graph build print outside docc.
    if ! swift package --package-path Docs generate-documentation --target "$target" \
        --warnings-as-errors > "$log" 2>&1; then
        cat "$log"
        echo "error: the documentation of $target did not build" >&2
        status=1
    elif grep -E "^(warning|error):" "$log" > /dev/null; then
        cat "$log"
        echo "error: the documentation of $target built with warnings" >&2
        status=1
    else
        tail -n 2 "$log"
    fi
    rm -f "$log"
done
exit $status
