#!/usr/bin/env python3
"""Measures `patchlab scan` against the judged sites of tests/scan/judged.yaml.

    scripts/scan-judged.py SRC_DIR [--bin target/release/patchlab] [--repo NAME] [--runs N]

SRC_DIR holds one checkout (or `git archive`) of each repository at its pinned commit,
named as the repository (`SRC_DIR/kubevirt`, `SRC_DIR/cluster-api`, ...). For each
repository the scan runs on its `scope` (tests and vendor left out, the default), and:

- recall: hazards (`hazards:`) with a finding at warning or above of the same rule, in
  the same file, within 3 lines;
- precision: findings at warning or above that match a hazard (`hazards:`, or
  `also_hazards:`, real hazards the marking missed and the scan found, which do not
  count for recall), over all of them; a finding that matches none of these nor a
  judged false positive (`not_hazards:`) is printed as UNJUDGED and the script exits 1:
  every warning must be judged by hand;
- time: wall time of the scan (median of --runs), with the machine's load average.

Nothing here decides what is a hazard: the YAML says, line by line, and this script
only compares it with what the scanner prints.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import yaml

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARN = {"warning", "error"}


def site(at):
    path, line = at.rsplit(":", 1)
    return path, int(line)


def matches(finding, entry):
    path, line = site(entry["at"])
    return (
        finding["rule"] == entry["rule"]
        and finding["file"] == path
        and abs(finding["line"] - line) <= 3
    )


def norm(path):
    return path[2:] if path.startswith("./") else path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--bin", default=os.path.join(HERE, "target/release/patchlab"))
    ap.add_argument("--repo", action="append")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    judged = yaml.safe_load(open(os.path.join(HERE, "tests/scan/judged.yaml")))
    unjudged_total = 0
    rows = []
    for repo in judged["repositories"]:
        name = repo["repo"].split("/")[1]
        if args.repo and name not in args.repo:
            continue
        root = os.path.join(args.src, name)
        scope = repo.get("scope", ".")
        times = []
        for _ in range(max(1, args.runs)):
            start = time.perf_counter()
            out = subprocess.run(
                [args.bin, "scan", scope, "--format", "json"],
                cwd=root,
                capture_output=True,
                text=True,
            )
            times.append(time.perf_counter() - start)
        if out.returncode not in (0, 1):
            sys.exit(f"{name}: scan exited {out.returncode}: {out.stderr[:500]}")
        report = json.loads(out.stdout)
        findings = [dict(f, file=norm(f["file"])) for f in report["findings"]]
        warnings = [f for f in findings if f["severity"] in WARN]
        hazards = repo.get("hazards") or []
        also = repo.get("also_hazards") or []
        wrong = repo.get("not_hazards") or []
        found = [h for h in hazards if any(matches(f, h) for f in warnings)]
        missed = [h for h in hazards if h not in found]
        right = [f for f in warnings if any(matches(f, h) for h in hazards + also)]
        false = [f for f in warnings if f not in right and any(matches(f, w) for w in wrong)]
        unjudged = [f for f in warnings if f not in right and f not in false]
        unjudged_total += len(unjudged)
        print(f"== {repo['repo']} @ {repo['commit'][:10]} ({repo['role']}), scope {scope}")
        print(
            f"   {report['files']} files, {report['bytes'] / 1e6:.1f} MB, "
            f"{len(warnings)} warnings, {len(findings) - len(warnings)} notes, "
            f"{len(report.get('skipped', []))} skipped"
        )
        for h in missed:
            print(f"   MISSED   {h['at']} {h['rule']}")
        for f in false:
            print(f"   WRONG    {f['file']}:{f['line']} {f['rule']}")
        for f in unjudged:
            print(f"   UNJUDGED {f['file']}:{f['line']} {f['rule']} ({f['function']}): {f['message'][:160]}")
        recall = f"{len(found)}/{len(hazards)}" if hazards else "-/0"
        precision = f"{len(right)}/{len(warnings)}" if warnings else "-/0"
        wall = statistics.median(times)
        print(
            f"   recall {recall}, precision {precision}, "
            f"{wall:.2f} s wall (load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)"
        )
        rows.append((repo["repo"], repo["role"], recall, precision, wall))
    print()
    print("| repository | role | recall | precision | wall |")
    print("|---|---|---|---|---|")
    for r, role, rec, prec, wall in rows:
        print(f"| {r} | {role} | {rec} | {prec} | {wall:.2f} s |")
    if unjudged_total:
        print(f"{unjudged_total} warnings not judged yet", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
