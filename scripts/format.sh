#!/usr/bin/env bash
# Formats every Swift file the project owns with swift-format and the repository's `.swift-format`:
#
#   scripts/format.sh          format the files in place
#   scripts/format.sh --lint   report every finding and fail on any (what CI runs, `--strict`)
#   scripts/format.sh --list   print the files, one a line
#
# The files are the Swift files git knows of (tracked, or new and not ignored): the library, its tests and plugin,
# the examples, the benchmarks, the stress package, the Swinject suite's support, the documentation package and
# the manifests. Left out, because their text is data rather than code written by hand:
#   - Tests/AssemblageGraphCheckTests/Fixtures/: the graph check's test inputs, read as text by the tests, whose
#     `// expect:` comments mark the findings each line must produce (formatting would move and split those lines);
#   - Benchmarks/Sources/ScaleFixtures/Generated/: the scale workloads, written by
#     Benchmarks/scripts/generate-scale-fixtures.py, tens of thousands of one-line declarations.
# The library's own generated files (scripts/generate-arities.py) are formatted code and are linted like the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
case "${1:-}" in
    "") ;;
    --lint) mode=lint ;;
    --list) mode=list ;;
    *) echo "usage: scripts/format.sh [--lint | --list]" >&2; exit 2 ;;
esac

files=()
while IFS= read -r file; do
    case "$file" in
        Tests/AssemblageGraphCheckTests/Fixtures/*) continue ;;
        Benchmarks/Sources/ScaleFixtures/Generated/*) continue ;;
    esac
    [ -f "$file" ] && files+=("$file")
done < <(git ls-files --cached --others --exclude-standard -- '*.swift' | sort -u)

case "$mode" in
    list) printf '%s\n' "${files[@]}" ;;
    lint) swift format lint --strict --parallel "${files[@]}" ;;
    format) swift format format --in-place --parallel "${files[@]}" ;;
esac
