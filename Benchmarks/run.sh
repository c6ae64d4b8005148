#!/usr/bin/env bash
# Builds and runs the benchmarks in release mode: `Benchmarks/run.sh [harness flags]`.
# SwiftPM caches the source list of path dependencies in the build plan and can miss files added to the
# library since the last build; removing the plan (not the build products) makes it look again.
set -euo pipefail
cd "$(dirname "$0")"
rm -f .build/release.yaml .build/release/description.json
swift build -c release
exec .build/release/assemblage-benchmarks "$@"
