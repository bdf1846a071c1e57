"""Time from `build-site new site DIR` to its index page served by `build-site serve`.

    python benchmarks/new_site.py [--repeat 3] [--build-site PATH]

Each run makes a new site in a temporary folder, starts the preview on a free port and
polls the index page until it answers 200; prints the median with min and max. Run it
with an installed wheel's `build-site` (``--build-site /path/venv/bin/build-site``) to
measure what a new user meets.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one(build_site: list[str], timeout: float) -> float:
    tmp = Path(tempfile.mkdtemp(prefix="new-site-"))
    site, port = tmp / "mysite", free_port()
    start = time.perf_counter()
    try:
        subprocess.run([*build_site, "new", "site", str(site)], check=True,
                       capture_output=True)
        proc = subprocess.Popen([*build_site, "serve", "--port", str(port)], cwd=site,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while time.perf_counter() - start < timeout:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/en/index.html",
                                                timeout=2) as r:
                        if r.status == 200:
                            return time.perf_counter() - start
                except OSError:
                    time.sleep(0.05)
            raise SystemExit(f"no page served within {timeout} s")
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs (default 3)")
    ap.add_argument("--build-site", default=None,
                    help="the build-site command to time (default: this interpreter's)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    args = ap.parse_args()
    if args.build_site and "/" in args.build_site:   # the runs start in other folders
        args.build_site = str(Path(args.build_site).resolve())
    cmd = [args.build_site] if args.build_site else [sys.executable, "-m", "site_builder.cli"]
    times = [one(cmd, args.timeout) for _ in range(args.repeat)]
    print(f"new site -> served page: median {statistics.median(times):.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}, {len(times)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
