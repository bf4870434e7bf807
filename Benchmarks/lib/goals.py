"""PASS/FAIL of a measured value against its goal in Benchmarks/goals.tsv (the twin of goals.sh).

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib")); from goals import goal_check
    goal_check("serve-bench", "search_p99", 8.4)
"""
import os

_TSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "goals.tsv")


def goals():
    """Every goal: {(benchmark, metric): (cmp, limit, unit, anchor)}."""
    rows = {}
    with open(_TSV) as f:
        next(f)
        for line in f:
            if line.strip():
                bench, metric, cmp, limit, unit, anchor = line.rstrip("\n").split("\t")
                rows[(bench, metric)] = (cmp, float(limit), unit, anchor)
    return rows


def goal_check(bench, metric, value):
    """Prints PASS or FAIL for one measured value; returns True when it passes, None when no goal is recorded."""
    goal = goals().get((bench, metric))
    if goal is None:
        print("NOGOAL %s %s: %s (not in goals.tsv)" % (bench, metric, value))
        return None
    cmp, limit, unit, anchor = goal
    ok = value <= limit if cmp == "<=" else value >= limit
    print("%s %s %s: %s %s (goal %s %g %s; anchor: %s)" % ("PASS" if ok else "FAIL", bench, metric,
                                                          round(value, 3), unit, cmp, limit, unit, anchor))
    return ok
