# Sourced by the benchmark scripts: PASS/FAIL of a measured value against its goal in Benchmarks/goals.tsv.
#   goal_check BENCH METRIC VALUE     prints "PASS|FAIL BENCH METRIC: VALUE UNIT (goal CMP LIMIT UNIT; anchor ...)"
# A metric missing from goals.tsv prints "NOGOAL" and returns 2; FAIL returns 0 (a benchmark reports, it does not
# stop halfway). Benchmarks/lib/goals.py is the same for the Python drivers.
goals_tsv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/goals.tsv"

goal_check() {
    local bench=$1 metric=$2 value=$3
    awk -F'\t' -v b="$bench" -v m="$metric" -v v="$value" '
        NR > 1 && $1 == b && $2 == m {
            found = 1
            ok = ($3 == "<=") ? (v + 0 <= $4 + 0) : (v + 0 >= $4 + 0)
            printf "%s %s %s: %s %s (goal %s %s %s; anchor: %s)\n", ok ? "PASS" : "FAIL", b, m, v, $5, $3, $4, $5, $6
        }
        END { if (!found) { printf "NOGOAL %s %s: %s (not in goals.tsv)\n", b, m, v; exit 2 } }' "$goals_tsv"
}
