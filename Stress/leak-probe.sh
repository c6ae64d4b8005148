#!/usr/bin/env bash
# Builds the leak probe (release) and runs it under valgrind: it builds and drops containers with registrations
# in every scope, singletons, Lazy and Provider, collections and decorators, and must leave 0 bytes definitely
# lost. Usage: Stress/leak-probe.sh [containers]   (default 10000; about 1 minute under valgrind on 2 cores)
set -euo pipefail
cd "$(dirname "$0")"
containers="${1:-10000}"
swift build -c release --product assemblage-leak-probe
probe=".build/release/assemblage-leak-probe"
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed; running the probe's own live-object check only" >&2
    exec "$probe" "$containers"
fi
log="$(mktemp)"
stripped="$(mktemp)"
trap 'rm -f "$log" "$stripped"' EXIT
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift 6 emits; a copy without debug info keeps its symbols.
cp "$probe" "$stripped"
chmod +x "$stripped"
if command -v objcopy >/dev/null; then objcopy --strip-debug "$stripped"; fi
status=0
# Only definite leaks are errors: the Swift runtime's metadata caches show as "possibly lost" (interior pointers).
valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 --log-file="$log" \
    "$stripped" "$containers" || status=$?
grep -E "definitely lost|indirectly lost|possibly lost|ERROR SUMMARY" "$log" || true
if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "leak probe failed (status $status)" >&2
    exit "$status"
fi
grep -q "definitely lost: 0 bytes" "$log" || grep -q "All heap blocks were freed" "$log" || {
    cat "$log" >&2
    echo "leak probe: bytes definitely lost" >&2
    exit 1
}
echo "leak probe passed"
