#!/usr/bin/env bash
# The deterministic performance gate: callgrind instructions per resolve of Assemblage for the six core
# resolve workloads, against the committed baseline (callgrind-baseline.tsv). Fails when any of them is more
# than 5 % above its baseline. Hand-written construction is counted beside them as a control: when it moved
# too, the toolchain or the harness changed, not the library, and the baseline wants re-recording.
#
# Usage: Benchmarks/callgrind-gate.sh [--record] [--no-build] [--threshold PCT] [--baseline FILE]
#   --record        measure and rewrite the baseline (header: date, machine, toolchain, commit); no comparison
#   --no-build      use the existing release build of the benchmarks
#   --threshold P   the regression that fails, in per cent (default 5)
#   --baseline F    the baseline file, relative to the current folder (default Benchmarks/callgrind-baseline.tsv)
#
# Exit status: 0 passed (or recorded), 1 a regression, 2 a usage or measuring error. About 2 minutes on two
# cores with the build up to date (the first release build of the benchmarks takes several more).
set -euo pipefail
cd "$(dirname "$0")"

# Workloads 1-6 of Benchmarks/README.md (its "Resolves" table, in order).
WORKLOADS=(resolve.transient resolve.transient.default resolve.singleton
           resolve.graph10 resolve.graph10.default resolve.graph10.singletonLeaves scope.request5)
# Workloads with a ceiling on Assemblage's instructions as a multiple of the hand-written control's, checked as well
# as the change against the baseline: a request (a scope, five scoped services, the end) within 2× hand-written code.
declare -A RATIO_LIMITS=([scope.request5]=2.0)
BASELINE=$PWD/callgrind-baseline.tsv
THRESHOLD=5
RECORD=0
BUILD=1

die() { echo "callgrind-gate.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --record) RECORD=1; shift ;;
        --no-build) BUILD=0; shift ;;
        --threshold) [ $# -ge 2 ] || die "--threshold needs a value"; THRESHOLD=$2; shift 2 ;;
        --baseline) [ $# -ge 2 ] || die "--baseline needs a value"
            BASELINE=$2; [[ "$BASELINE" == /* ]] || BASELINE="$OLDPWD/$BASELINE"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (try --help)" ;;
    esac
done
[[ "$THRESHOLD" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--threshold takes a number of per cent"
command -v valgrind >/dev/null || die "valgrind is not installed (Debian: apt-get install valgrind)"
# The baseline's path for messages: relative to the repository root when inside it.
SHOWN=${BASELINE#"$(cd .. && pwd)/"}
[ "$RECORD" = 1 ] || [ -f "$BASELINE" ] || die "no baseline at $SHOWN (record one with --record)"

if [ "$BUILD" = 1 ]; then
    # As run.sh: SwiftPM caches the source list of path dependencies in the build plan and can miss files
    # added to the library since the last build; removing the plan (not the products) makes it look again.
    rm -f .build/release.yaml .build/release/description.json
    echo "callgrind-gate: building the benchmarks (release) …" >&2
    log=$(mktemp)
    if ! swift build -c release >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        die "swift build -c release failed"
    fi
    rm -f "$log"
fi

measured=$(mktemp)
trap 'rm -f "$measured"' EXIT
filters=()
for w in "${WORKLOADS[@]}"; do filters+=(--filter "$w"); done
# --filter matches substrings; the TSV is narrowed to exactly WORKLOADS below.
./callgrind.sh --no-build --contestant hand --contestant assemblage "${filters[@]}" --tsv "$measured" >&2

# value FILE WORKLOAD CONTESTANT → the count, or empty.
value() { awk -F'\t' -v w="$2" -v c="$3" '!/^#/ && $1 == w && $2 == c { print $3 }' "$1"; }
is_number() { [[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

for w in "${WORKLOADS[@]}"; do
    for c in hand assemblage; do
        v=$(value "$measured" "$w" "$c")
        is_number "$v" || die "no instruction count for $w ($c): '${v}' (see the callgrind.sh output above)"
    done
done

if [ "$RECORD" = 1 ]; then
    library=$(git log -1 --format='%h (%cs), last commit to Sources/Assemblage and Sources/_AssemblageShims' -- ../Sources/Assemblage ../Sources/_AssemblageShims 2>/dev/null || echo unknown)
    checkout=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git status --porcelain -- ../Sources ../Package.swift 2>/dev/null)" ]; then checkout="$checkout, with uncommitted library changes"; fi
    cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    {
        echo "# Baseline of Benchmarks/callgrind-gate.sh: callgrind instructions (Ir) per resolve,"
        echo "# (count at N = 11000 - count at N = 1000) / 10000, as Benchmarks/callgrind.sh counts them."
        echo "# recorded: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "# machine: $(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores${cpu:+, $cpu}"
        echo "# swift: $(swift --version 2>&1 | head -n 1)"
        echo "# valgrind: $(valgrind --version)"
        echo "# library: $library"
        echo "# checkout: $checkout"
        echo "# Re-record after a change that is meant to move these: Benchmarks/callgrind-gate.sh --record"
        printf 'workload\thand\tassemblage\n'
        for w in "${WORKLOADS[@]}"; do
            printf '%s\t%s\t%s\n' "$w" "$(value "$measured" "$w" hand)" "$(value "$measured" "$w" assemblage)"
        done
    } >"$BASELINE"
    echo "callgrind-gate: recorded $SHOWN:"
    cat "$BASELINE"
    exit 0
fi

# baseline WORKLOAD COLUMN → the baseline's count (column 2 hand, 3 assemblage).
baseline() { awk -F'\t' -v w="$1" -v col="$2" '!/^#/ && $1 == w { print $col }' "$BASELINE"; }

echo "callgrind-gate: instructions per resolve against $SHOWN ($(grep -m1 '^# library:' "$BASELINE" | cut -c3-)), failing above +$THRESHOLD %"
printf '%-34s %12s %12s %9s   %12s %12s %9s\n' workload "Assemblage" baseline change hand-written baseline change
failed=()
control_moved=()
for w in "${WORKLOADS[@]}"; do
    a=$(value "$measured" "$w" assemblage); h=$(value "$measured" "$w" hand)
    ab=$(baseline "$w" 3); hb=$(baseline "$w" 2)
    is_number "$ab" && is_number "$hb" || die "the baseline has no figures for $w (re-record with --record)"
    ac=$(awk -v x="$a" -v b="$ab" 'BEGIN { printf "%+.2f", (x - b) / b * 100 }')
    hc=$(awk -v x="$h" -v b="$hb" 'BEGIN { printf "%+.2f", (x - b) / b * 100 }')
    verdict=""
    if awk -v c="$ac" -v t="$THRESHOLD" 'BEGIN { exit !(c > t) }'; then verdict="  REGRESSION"; failed+=("$w ($ac %)"); fi
    limit=${RATIO_LIMITS[$w]:-}
    if [ -n "$limit" ] && awk -v a="$a" -v h="$h" -v l="$limit" 'BEGIN { exit !(a > h * l) }'; then
        verdict="$verdict  OVER ${limit}x HAND-WRITTEN"
        failed+=("$w ($(awk -v a="$a" -v h="$h" 'BEGIN { printf "%.2f", a / h }')x hand-written, limit ${limit}x)")
    fi
    if awk -v c="$hc" -v t="$THRESHOLD" 'BEGIN { exit !(c > t || c < -t) }'; then control_moved+=("$w"); fi
    printf '%-34s %12.1f %12.1f %8s%%   %12.1f %12.1f %8s%%%s\n' "$w" "$a" "$ab" "$ac" "$h" "$hb" "$hc" "$verdict"
done
if [ ${#control_moved[@]} -gt 0 ]; then
    echo "callgrind-gate: note: the hand-written control moved by more than $THRESHOLD % too (${control_moved[*]}):" \
        "the toolchain or the harness changed; compare with care and re-record the baseline with --record"
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "callgrind-gate: FAILED: Assemblage instructions regressed over $THRESHOLD % or passed a ceiling: ${failed[*]}"
    exit 1
fi
echo "callgrind-gate: passed"
