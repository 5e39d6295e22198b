#!/usr/bin/env python3
"""Turns JMH JSON results (one file per thread count) into a markdown table with per-core figures and ratios.

Usage: jmh_report.py TITLE OUT.md TARGETS.json RESULT.json [RESULT.json...]
TARGETS.json maps a benchmark method name to {"baseline": method, "per_core_target": ops/s} (both optional).
Figures are compared only within one run: each ratio divides two results measured minutes apart on this machine.
"""
import datetime
import json
import os
import platform
import subprocess
import sys


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, {platform.system()} {platform.release()}, {java}"


def main():
    title, out, targets_file = sys.argv[1:4]
    targets = json.load(open(targets_file))
    rows = {}
    for path in sys.argv[4:]:
        for result in json.load(open(path)):
            name = result["benchmark"].rsplit(".", 1)[1]
            threads = result["threads"]
            metric = result["primaryMetric"]
            rows.setdefault(name, {})[threads] = (metric["score"], metric["scoreError"])
    thread_counts = sorted({t for r in rows.values() for t in r})
    lines = [f"# {title}", "",
             f"Measured {datetime.date.today().isoformat()} on {machine()}.",
             "Throughput in operations per second (JMH, mean ± 99.9% error); per core = all-threads score / threads.",
             "Ratios compare two results of this same run.", ""]
    header = ["benchmark"] + [f"{t} thread{'s' if t > 1 else ''}" for t in thread_counts] + \
             ["per core", "vs baseline", "target per core", "met"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for name in sorted(rows):
        by_threads = rows[name]
        top = max(by_threads)
        per_core = by_threads[top][0] / top
        cells = [name]
        for t in thread_counts:
            score = by_threads.get(t)
            cells.append(f"{score[0]:,.0f} ± {score[1]:,.0f}" if score else "")
        cells.append(f"{per_core:,.0f}")
        target = targets.get(name, {})
        baseline = target.get("baseline")
        if baseline and baseline in rows:
            base = rows[baseline][max(rows[baseline])][0] / max(rows[baseline])
            cells.append(f"{per_core / base:.2f}× {baseline}")
        else:
            cells.append("")
        goal = target.get("per_core_target")
        cells.append(f"{goal:,}" if goal else "")
        cells.append(("yes" if per_core >= goal else "NO") if goal else "")
        lines.append("| " + " | ".join(cells) + " |")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
