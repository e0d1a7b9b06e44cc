"""Counts of one conformance-kit run, from the JUnit XML pytest wrote, checked against the expected failures.

    python3 tck_counts.py <junitreport.xml> [<expected-failures.txt>]

Prints `tck: N passed, N failed, N skipped, N xfailed, N errors (of N)` (xfailed: SHOULD-level
requirements the agent does not meet, which the kit does not count as failures), then each failed or
errored test with the first line of its message, marked `expected` when the list names it. Exits 0
when every failure and error is in the list, 1 otherwise. Listed tests that passed are named too (the
list may be out of date), without changing the exit status.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def read_expected(path: str | None) -> set[str]:
    if path is None:
        return set()
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")}


def main(junit: str, expected_path: str | None) -> int:
    expected = read_expected(expected_path)
    counts = {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0, "errors": 0}
    broken: list[str] = []
    unexpected = 0
    passed: set[str] = set()
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        failure, error, skipped = case.find("failure"), case.find("error"), case.find("skipped")
        if failure is not None or error is not None:
            node = failure if failure is not None else error
            counts["failed" if failure is not None else "errors"] += 1
            message = (node.get("message") or node.text or "").strip().splitlines()
            known = name in expected
            unexpected += 0 if known else 1
            kind = "FAILED" if failure is not None else "ERROR"
            broken.append(f"  {kind} {'(expected) ' if known else ''}{name}: {message[0][:160] if message else ''}")
        elif skipped is not None:
            counts["xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"] += 1
        else:
            counts["passed"] += 1
            passed.add(name)
    print("tck: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + f" (of {sum(counts.values())})")
    for line in broken:
        print(line)
    if expected_path is not None:
        print(f"tck: {unexpected} failure(s) not in {Path(expected_path).name}")
        for name in sorted(expected & passed):
            print(f"  listed but passed: {name}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
