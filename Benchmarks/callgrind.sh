#!/usr/bin/env bash
# Instructions per operation for each workload × contestant, counted by valgrind's callgrind;
# with --allocs, also heap allocations (blocks and bytes) per operation, counted by dhat.
#
# Each (workload, contestant) runs twice, `assemblage-benchmarks --single W --contestant C
# --iterations N` with N = N1 and N = N2, and the figure is
#     (count(N2) - count(N1)) / (N2 - N1)
# so process start-up, setup, registration and first-resolve costs cancel out. Setup workloads
# (register.10000, assemble.*, validate.*: one operation builds a whole container) run N = 1 and
# N = 3 times instead; throughput workloads are skipped (valgrind runs one thread at a time).
#
# Usage: Benchmarks/callgrind.sh [--filter S]... [--contestant hand|assemblage|swinject]...
#                                [--n1 N] [--n2 N] [--setup-n1 N] [--setup-n2 N] [--allocs]
#                                [--markdown] [--tsv FILE] [--keep DIR] [--no-build] [--jobs J]
#   --filter S      only workloads whose name contains S (repeatable)
#   --contestant C  only these contestants (repeatable; default all three)
#   --n1, --n2      the two iteration counts of resolve workloads (default 1000 and 11000)
#   --setup-n1, --setup-n2  the two iteration counts of setup workloads (default 1 and 3)
#   --allocs        also count mallocs and bytes per op with valgrind --tool=dhat
#   --markdown      print the tables as Markdown
#   --tsv FILE      also write the unrounded instructions per op to FILE (relative to the current folder), one
#                   `workload<TAB>contestant<TAB>count` line each ("-" where the contestant has no such
#                   workload, "ERR" where valgrind failed; used by callgrind-gate.sh)
#   --keep DIR      keep the callgrind.out files and logs in DIR (for callgrind_annotate)
#   --no-build      use the existing release build
#   --jobs J        valgrind runs at once (default: number of cores, at most 2)
set -euo pipefail

cd "$(dirname "$0")"

N1=1000
N2=11000
SN1=1
SN2=3
ALLOCS=0
MARKDOWN=0
TSV=""
BUILD=1
KEEP=""
FILTERS=()
CONTESTANTS=()
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$JOBS" -gt 2 ]; then JOBS=2; fi

die() { echo "callgrind.sh: $*" >&2; exit 2; }
need_value() { [ $# -ge 2 ] || die "$1 needs a value"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --filter) need_value "$@"; FILTERS+=("$2"); shift 2 ;;
        --contestant) need_value "$@"
            case "$2" in hand|assemblage|swinject) CONTESTANTS+=("$2") ;; *) die "unknown contestant '$2'" ;; esac
            shift 2 ;;
        --n1) need_value "$@"; N1=$2; shift 2 ;;
        --n2) need_value "$@"; N2=$2; shift 2 ;;
        --setup-n1) need_value "$@"; SN1=$2; shift 2 ;;
        --setup-n2) need_value "$@"; SN2=$2; shift 2 ;;
        --allocs) ALLOCS=1; shift ;;
        --markdown) MARKDOWN=1; shift ;;
        --tsv) need_value "$@"; TSV=$2; [[ "$TSV" == /* ]] || TSV="$OLDPWD/$TSV"; shift 2 ;;
        --keep) need_value "$@"; KEEP=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --jobs) need_value "$@"; JOBS=$2; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (try --help)" ;;
    esac
done
[ ${#CONTESTANTS[@]} -gt 0 ] || CONTESTANTS=(hand assemblage swinject)
[[ "$N1" =~ ^[0-9]+$ && "$N2" =~ ^[0-9]+$ ]] || die "--n1 and --n2 take whole numbers"
[ "$N2" -gt "$N1" ] || die "--n2 ($N2) must be larger than --n1 ($N1)"
[[ "$SN1" =~ ^[0-9]+$ && "$SN2" =~ ^[0-9]+$ ]] || die "--setup-n1 and --setup-n2 take whole numbers"
[ "$SN2" -gt "$SN1" ] || die "--setup-n2 ($SN2) must be larger than --setup-n1 ($SN1)"
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs takes a positive number"
command -v valgrind >/dev/null || die "valgrind is not installed (Debian: apt-get install valgrind)"

if [ "$BUILD" = 1 ]; then
    echo "building (release) …" >&2
    if ! swift build -c release >/tmp/assemblage-benchmarks-build.$$.log 2>&1; then
        cat /tmp/assemblage-benchmarks-build.$$.log >&2
        rm -f /tmp/assemblage-benchmarks-build.$$.log
        die "swift build failed"
    fi
    rm -f /tmp/assemblage-benchmarks-build.$$.log
fi
BIN_DIR=$(swift build -c release --show-bin-path)
[ -x "$BIN_DIR/assemblage-benchmarks" ] || die "no release build at $BIN_DIR (run without --no-build)"

if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    WORK=$(cd "$KEEP" && pwd)
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/assemblage-callgrind.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
fi

# valgrind 3.19 cannot read the DWARF 5 debug info that Swift 6 emits ("Possibly corrupted
# debuginfo file ... Giving up"), so it runs a copy without debug sections. Symbols stay, so
# callgrind_annotate still names functions.
BIN="$WORK/assemblage-benchmarks"
cp "$BIN_DIR/assemblage-benchmarks" "$BIN"
if command -v strip >/dev/null; then
    strip --strip-debug "$BIN"
elif command -v objcopy >/dev/null; then
    objcopy --strip-debug "$BIN"
fi

# Swift seeds its hash functions per process; a fixed seed makes dictionary probing, and so the
# counts, repeatable from run to run.
export SWIFT_DETERMINISTIC_HASHING=1

# name → kind (resolve, setup, throughput), from the benchmark itself.
WORKLOADS=()
SKIPPED=()
declare -A KIND
while read -r name kind; do
    [ -n "$name" ] || continue
    matched=0
    if [ ${#FILTERS[@]} -eq 0 ]; then
        matched=1
    else
        for f in "${FILTERS[@]}"; do
            if [[ "$name" == *"$f"* ]]; then matched=1; break; fi
        done
    fi
    [ "$matched" = 1 ] || continue
    if [ "$kind" = throughput ]; then SKIPPED+=("$name"); continue; fi
    WORKLOADS+=("$name")
    KIND[$name]=$kind
done < <("$BIN" --list-kinds)
[ ${#WORKLOADS[@]} -gt 0 ] || die "no countable workload matches: ${FILTERS[*]}"

# The two iteration counts of a workload.
counts() {
    if [ "${KIND[$1]}" = setup ]; then echo "$SN1 $SN2"; else echo "$N1 $N2"; fi
}

# The instruction total of a callgrind output file. Reads the `events:` line to find the Ir
# column; takes `summary:` when present, else adds up the `totals:` lines (one per dump part).
callgrind_total() {
    awk '
        /^events:/ { for (i = 2; i <= NF; i++) if ($i == "Ir") col = i - 1 }
        /^summary:/ { summary = $(col + 1); have_summary = 1 }
        /^totals:/ { totals += $(col + 1); have_totals = 1 }
        BEGIN { col = 1 }
        END {
            if (have_summary) print summary
            else if (have_totals) print totals
            else print "ERR"
        }' "$1"
}

# "blocks bytes" from dhat's stderr line `==pid== Total:     1,234 bytes in 56 blocks`.
dhat_total() {
    sed -n 's/^==[0-9]*== Total:[[:space:]]*\([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\2 \1/p' "$1" \
        | tr -d , | tail -n 1
}

# run TOOL WORKLOAD CONTESTANT N → writes $WORK/TOOL.W.C.N.{out,log,rc}
run_one() {
    local tool=$1 workload=$2 contestant=$3 n=$4
    local base="$WORK/$tool.$workload.$contestant.$n"
    local rc=0
    if [ "$tool" = callgrind ]; then
        valgrind --tool=callgrind --callgrind-out-file="$base.out" --dump-instr=no \
            "$BIN" --single "$workload" --contestant "$contestant" --iterations "$n" \
            >"$base.stdout" 2>"$base.log" || rc=$?
    else
        valgrind --tool=dhat --dhat-out-file=/dev/null \
            "$BIN" --single "$workload" --contestant "$contestant" --iterations "$n" \
            >"$base.stdout" 2>"$base.log" || rc=$?
    fi
    echo "$rc" >"$base.rc"
}

# Runs every (tool, workload, contestant, N), JOBS at a time.
TASKS=()
for w in "${WORKLOADS[@]}"; do
    for c in "${CONTESTANTS[@]}"; do
        # shellcheck disable=SC2046
        for n in $(counts "$w"); do
            TASKS+=("callgrind $w $c $n")
            if [ "$ALLOCS" = 1 ]; then TASKS+=("dhat $w $c $n"); fi
        done
    done
done
echo "running ${#TASKS[@]} valgrind processes, $JOBS at a time …" >&2
running=0
for task in "${TASKS[@]}"; do
    # shellcheck disable=SC2086
    run_one $task &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

# per_op TOOL W C FIELD → count per op, "—" when the contestant has no such workload, "ERR"
# (with the log printed to stderr) when valgrind or the benchmark failed.
per_op() {
    local tool=$1 w=$2 c=$3 field=$4
    local a b rc1 rc2 n1 n2
    read -r n1 n2 < <(counts "$w")
    rc1=$(cat "$WORK/$tool.$w.$c.$n1.rc")
    rc2=$(cat "$WORK/$tool.$w.$c.$n2.rc")
    if [ "$rc1" = 3 ] || [ "$rc2" = 3 ]; then echo "—"; return; fi
    if [ "$rc1" != 0 ] || [ "$rc2" != 0 ]; then
        echo "callgrind.sh: $tool $w $c failed (exit $rc1 / $rc2):" >&2
        tail -n 20 "$WORK/$tool.$w.$c.$n2.log" >&2
        echo "ERR"; return
    fi
    if [ "$tool" = callgrind ]; then
        a=$(callgrind_total "$WORK/$tool.$w.$c.$n1.out")
        b=$(callgrind_total "$WORK/$tool.$w.$c.$n2.out")
    else
        a=$(dhat_total "$WORK/$tool.$w.$c.$n1.log" | awk -v f="$field" '{print $f}')
        b=$(dhat_total "$WORK/$tool.$w.$c.$n2.log" | awk -v f="$field" '{print $f}')
    fi
    if ! [[ "$a" =~ ^[0-9]+$ && "$b" =~ ^[0-9]+$ ]]; then
        echo "callgrind.sh: could not read the $tool count for $w $c ('$a', '$b')" >&2
        echo "ERR"; return
    fi
    awk -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" 'BEGIN { printf "%.2f", (b - a) / (n2 - n1) }'
}

ratio() {
    awk -v x="$1" -v y="$2" 'BEGIN {
        if (x !~ /^-?[0-9.]+$/ || y !~ /^-?[0-9.]+$/ || y + 0 <= 0) { print "—"; exit }
        r = x / y; if (r < 10) printf "%.2f×", r; else printf "%.1f×", r }'
}

# fmt X → 12,345 above 100, one decimal below; anything not a number is passed through.
fmt() {
    awk -v x="$1" 'BEGIN {
        if (x !~ /^-?[0-9]+(\.[0-9]+)?$/) { print x; exit }
        if (x < 100 && x > -100) { printf "%.1f\n", x; exit }
        s = sprintf("%.0f", x); sign = ""; if (substr(s, 1, 1) == "-") { sign = "-"; s = substr(s, 2) }
        out = ""; n = length(s)
        for (i = 1; i <= n; i++) { out = out substr(s, i, 1); if (i < n && (n - i) % 3 == 0) out = out "," }
        print sign out }'
}

# fmt_small X → whole numbers without decimals, others with two (allocations per op).
fmt_small() {
    awk -v x="$1" 'BEGIN {
        if (x !~ /^-?[0-9]+(\.[0-9]+)?$/) { print x; exit }
        if (x == int(x)) printf "%d\n", x; else printf "%.2f\n", x }'
}

# fmt_bytes X → like fmt_small below 100, like fmt above.
fmt_bytes() {
    if awk -v x="$1" 'BEGIN { exit !(x >= 100) }'; then fmt "$1"; else fmt_small "$1"; fi
}

selected() { # is contestant $1 among --contestant?
    local x
    for x in "${CONTESTANTS[@]}"; do [ "$x" = "$1" ] && return 0; done
    return 1
}

# print_table TITLE then rows of "|"-separated cells on stdin
print_table() {
    local title=$1
    echo
    echo "$title"
    if [ "$MARKDOWN" = 1 ]; then
        echo
        awk -F'|' '
            NR == 1 { line = "|"; sep = "|"
                      for (i = 1; i <= NF; i++) { line = line " " $i " |"; sep = sep (i == 1 ? "---|" : "---:|") }
                      print line; print sep; next }
            { line = "| `" $1 "` |"; for (i = 2; i <= NF; i++) line = line " " $i " |"; print line }'
    else
        # LC_ALL=C: byte semantics in every awk; display width = bytes − UTF-8 continuation bytes.
        LC_ALL=C awk -F'|' '
            function width_of(s,   t) { t = s; return length(s) - gsub(/[\200-\277]/, "", t) }
            function pad(s, w, left,   p) { p = sprintf("%" (w - width_of(s)) "s", ""); if (w - width_of(s) <= 0) p = ""; return left ? s p : p s }
            { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; w = width_of($i); if (w > width[i]) width[i] = w }
              if (NF > cols) cols = NF; rows = NR }
            END {
                for (r = 1; r <= rows; r++) {
                    line = ""
                    for (i = 1; i <= cols; i++) line = line (i == 1 ? pad(cell[r, i], width[i], 1) : "  " pad(cell[r, i], width[i], 0))
                    print line
                    if (r == 1) { line = ""; for (i = 1; i <= cols; i++) { s = sprintf("%" width[i] "s", ""); gsub(/ /, "-", s); line = line (i == 1 ? "" : "  ") s }; print line }
                }
            }'
    fi
}

echo "Assemblage benchmarks, instruction counts — $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "machine: $(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores"
echo "swift: $(swift --version 2>&1 | head -n 1)"
echo "$(valgrind --version); per op = (count at N2 − count at N1) / (N2 − N1), N = $N1 → $N2 for resolves, $SN1 → $SN2 for setup workloads; user-space instructions only (system calls are not counted)"
if [ ${#SKIPPED[@]} -gt 0 ]; then
    echo "not counted (multi-threaded; valgrind runs one thread at a time): ${SKIPPED[*]}"
fi

# workloads_of KIND → the selected workloads of that kind, one a line.
workloads_of() {
    local w
    for w in "${WORKLOADS[@]}"; do [ "${KIND[$w]}" = "$1" ] && echo "$w"; done
    return 0
}

instruction_table() { # KIND TITLE
    local rows
    rows=$(workloads_of "$1")
    [ -n "$rows" ] || return 0
    {
        echo "workload|hand-written|Assemblage|Swinject|Assemblage/hand|Swinject/Assemblage"
        while read -r w; do
            h="—"; a="—"; s="—"
            if selected hand; then h=$(per_op callgrind "$w" hand 1); fi
            if selected assemblage; then a=$(per_op callgrind "$w" assemblage 1); fi
            if selected swinject; then s=$(per_op callgrind "$w" swinject 1); fi
            echo "$w|$(fmt "$h")|$(fmt "$a")|$(fmt "$s")|$(ratio "$a" "$h")|$(ratio "$s" "$a")"
            if [ -n "$TSV" ]; then
                if selected hand; then printf '%s\thand\t%s\n' "$w" "${h/—/-}" >>"$TSV"; fi
                if selected assemblage; then printf '%s\tassemblage\t%s\n' "$w" "${a/—/-}" >>"$TSV"; fi
                if selected swinject; then printf '%s\tswinject\t%s\n' "$w" "${s/—/-}" >>"$TSV"; fi
            fi
        done <<<"$rows"
    } | print_table "$2"
}

allocation_table() { # KIND TITLE
    local rows
    rows=$(workloads_of "$1")
    [ -n "$rows" ] || return 0
    {
        echo "workload|hand-written|Assemblage|Swinject"
        while read -r w; do
            line="$w"
            for c in hand assemblage swinject; do
                v="—"
                if selected "$c"; then
                    blocks=$(per_op dhat "$w" "$c" 1)
                    bytes=$(per_op dhat "$w" "$c" 2)
                    if [ "$blocks" = "—" ] || [ "$blocks" = "ERR" ]; then v=$blocks
                    else v="$(fmt_bytes "$blocks") / $(fmt_bytes "$bytes") B"; fi
                fi
                line="$line|$v"
            done
            echo "$line"
        done <<<"$rows"
    } | print_table "$2"
}

if [ -n "$TSV" ]; then : >"$TSV"; fi
instruction_table resolve "Instructions per resolve (callgrind Ir)"
instruction_table setup "Instructions per operation, setup workloads (callgrind Ir)"
if [ "$ALLOCS" = 1 ]; then
    allocation_table resolve "Heap allocations per resolve (dhat: blocks / bytes)"
    allocation_table setup "Heap allocations per operation, setup workloads (dhat: blocks / bytes; freed ones included)"
fi
