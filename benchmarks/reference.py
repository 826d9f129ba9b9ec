"""Time our replays against the 18xx.games engine on this machine, side by side.

Run: ``.venv/bin/python benchmarks/reference.py --reference DIR [--repeat N] [FILE ...]``
where ``DIR`` is a checkout of https://github.com/tobymao/18xx (its ``lib/`` is
loaded; nothing of it is copied here) and ``ruby`` (3.1, as the issue's figures) is
on the ``PATH``.  For each fixture it alternates our replay (every action, every
route validated and re-priced, as ``benchmarks/replay.py``) with the reference's
``Engine::Game.load`` of the same export (which does not recompute routes), best of
``--repeat`` each, and prints one JSON line: both CPU times and their ratio.

Timings on a shared virtual machine drift by tens of percent from one minute to
the next, so the figures that matter are the ones taken together; absolute numbers
from another day are not comparable.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import FIXTURES, bench  # noqa: E402

# The reference loads its titles with the require_all gem; this stand-in loads only
# the titles we play (the gem itself may not be installed).
_REQUIRE_ALL = """
def require_all(*paths)
  allowed = %w[g_1867 g_1822 g_1822_ca g_1822_ca_ers g_1822_ca_wrs]
  files = paths.flatten.flat_map do |p|
    File.directory?(p) ? Dir.glob(File.join(p, '**', '*.rb')).sort : [p]
  end
  files = files.map { |f| File.expand_path(f) }.select do |f|
    m = f.match(%r{/engine/game/(g_[^/.]+)})
    m.nil? || allowed.include?(m[1])
  end
  pending = files
  loop do
    failed = pending.reject do |f|
      require f
      true
    rescue NameError
      false
    end
    break if failed.empty?
    raise "cannot load #{failed.first}" if failed.size == pending.size
    pending = failed
  end
end

def require_rel(*paths)
  base = File.dirname(caller_locations(1, 1)[0].absolute_path)
  require_all(*paths.flatten.map { |p| File.expand_path(p, base) })
end
"""

_TIMER = """
require 'json'
require 'set'
ENV['ENGINE_LOG_LEVEL'] ||= '4'
require File.join(ARGV[0], 'lib', 'engine')
data = JSON.parse(File.read(ARGV[1]))
repeat = ARGV[2].to_i
Engine::Game.load(data)
best = Float::INFINITY
repeat.times do
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  game = Engine::Game.load(data)
  best = [best, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu].min
  raise 'the reference did not finish the game' unless game.finished
end
puts best
"""


def reference_cpu(reference: Path, stub_dir: Path, path: Path, repeat: int) -> float:
    """Best CPU seconds of the reference's ``Game.load`` of ``path``."""
    timer = stub_dir / "timer.rb"
    out = subprocess.run(
        ["ruby", "-I", str(stub_dir), "-r", "require_all", str(timer), str(reference),
         str(path), str(repeat)],
        check=True, capture_output=True, text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    """Benchmark each fixture in both engines, alternating."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=Path, required=True,
                        help="a tobymao/18xx checkout (the directory holding lib/)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2,
                        help="alternations of ours and the reference per fixture")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    if shutil.which("ruby") is None:
        print("benchmarks/reference.py: ruby is not on the PATH", file=sys.stderr)
        return 2
    if not (args.reference / "lib" / "engine.rb").is_file():
        print(f"benchmarks/reference.py: {args.reference} has no lib/engine.rb",
              file=sys.stderr)
        return 2
    files = args.files or sorted(FIXTURES.glob("*/*.json"))
    with tempfile.TemporaryDirectory() as tmp:
        stub_dir = Path(tmp)
        (stub_dir / "require_all.rb").write_text(_REQUIRE_ALL)
        (stub_dir / "timer.rb").write_text(_TIMER)
        for path in files:
            ours = theirs = float("inf")
            for _ in range(args.rounds):
                ours = min(ours, float(bench(path, args.repeat)["cpu_seconds"]))  # type: ignore[arg-type]
                theirs = min(theirs, reference_cpu(args.reference, stub_dir, path,
                                                   args.repeat))
            print(json.dumps({"fixture": path.name, "ours_cpu": round(ours, 4),
                              "reference_cpu": round(theirs, 4),
                              "reference_over_ours": round(theirs / ours, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
