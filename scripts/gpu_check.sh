#!/usr/bin/env bash
# The one GPU-machine script: installs the carried abi3 wheel (built here by scripts/build_wheel.sh,
# so no lease time goes to compiling), then runs the selected stages and writes logs under $OUT.
#   scripts/gpu_check.sh [info] [check] [gtest] [test] [sanitize] [bench] [cli-bench]   (default: all)
# Called through the device tool with carry [".carry"].
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/dsv4ext-gpu}
LOGS=$OUT/logs  # packed into $OUT/logs.tgz at the end (the device tool returns at most 8 files)
mkdir -p "$LOGS"
stages=${*:-info check gtest test sanitize bench cli-bench}
status=0
run() {  # run NAME CMD...: log to $LOGS/NAME.log, remember failures
  local name=$1; shift
  echo "=== $name: $*"
  "$@" > "$LOGS/$name.log" 2>&1
  local rc=$?
  tail -n "${TAIL:-25}" "$LOGS/$name.log"
  echo "=== $name: exit $rc"
  [ $rc -eq 0 ] || status=1
}

site=/tmp/dsv4ext-site
python3 -m pip install -q --no-index --no-deps --target "$site" .carry/wheels/dsv4ext-*.whl || exit 1
export PYTHONPATH=$site PYTHONUNBUFFERED=1

for stage in $stages; do
  case $stage in
    info) run info bash -c "nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; python3 -m dsv4ext info" ;;
    check) run check python3 -m dsv4ext check ;;
    gtest)
      for t in .carry/bin/test_*; do
        [ -x "$t" ] && run "gtest_$(basename "$t")" "$t" --gtest_brief=1
      done ;;
    test) run test python3 -m pytest tests/python -q -rs -p no:cacheprovider ;;
    sanitize)
      run memcheck compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py
      run racecheck compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py ;;
    bench)
      for b in benchmarks/bench_*.py; do
        [ -e "$b" ] && run "$(basename "$b" .py)" python3 "$b" --out "$OUT"
      done ;;
    cli-bench) run cli_bench python3 -m dsv4ext bench --device cuda --json "$OUT/bench_cli.json" ;;
    *) echo "unknown stage $stage"; status=1 ;;
  esac
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$LOGS"
exit $status
