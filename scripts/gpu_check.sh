#!/usr/bin/env bash
# The one GPU-machine script: installs the carried abi3 wheel (built here by scripts/build_wheel.sh,
# so no lease time goes to compiling), then runs the selected stages and writes logs under $OUT.
#   scripts/gpu_check.sh [info] [check] [gtest] [test] [sanitize] [bench] [cli-bench]   (default: all)
#                        [peers] [peers-cub] [peers-bench]                            (not in the default)
# peers: installs the peers fetched by scripts/fetch_peers.sh (.carry/peers) into a side directory and
# JIT-builds FlashInfer's mHC and top-k modules into a fixed cache; later stages, and later calls on
# the warm machine, import and reuse them.
# peers-cub: after `peers`, starts the JIT build of FlashInfer's cub_topk.cu (> 9 min, longer than one
# call may run) detached, so it goes on after the call while the machine stays warm; its log is
# /tmp/dsv4ext-peers/cub_build.log. A later `DSV4EXT_PEERS_CUB=1 scripts/gpu_check.sh peers-bench`
# then times the flashinfer_cub peer too.
# peers-bench: benchmarks/bench_peers.py (ours vs the peers, checked) -> $OUT/peers.{md,json}.
# test: pytest over $TESTS (default tests/python: ~6 min on the H100 since 2026-11-23 (6), more than
# one call leaves beside check and gtest; split it, e.g. TESTS="tests/python/test_top_k_per_row_*.py").
# Called through the device tool with carry [".carry"].
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/dsv4ext-gpu}
# Logs live outside $OUT and are packed into $OUT/logs.tgz after every stage: the device tool returns
# at most 8 files, and a call cut at its time limit still returns the stages it finished.
LOGS=/tmp/dsv4ext-gpu-logs/logs
rm -rf "$LOGS" && mkdir -p "$LOGS" "$OUT"
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
  tar -C "$(dirname "$LOGS")" -czf "$OUT/logs.tgz.part" logs && mv "$OUT/logs.tgz.part" "$OUT/logs.tgz"
}

site=/tmp/dsv4ext-site
python3 -m pip install -q --no-index --no-deps --target "$site" .carry/wheels/dsv4ext-*.whl || exit 1
peers_site=/tmp/dsv4ext-peers/site  # kept between calls while the machine stays warm, as is the JIT cache
export FLASHINFER_WORKSPACE_BASE=/tmp/dsv4ext-peers  # FlashInfer's JIT cache: $it/.cache/flashinfer/<version>/<arch>
export TVM_FFI_CACHE_DIR=/tmp/dsv4ext-peers/tvm-ffi  # tvm-ffi's torch addon, JIT-built where torch lacks the DLPack C API
export DSV4EXT_CUB_TOPK_LIB=$PWD/.carry/peers/libdsv4ext_cub_topk.so  # the `cub` peers (scripts/build_cub_topk.sh)
export PYTHONPATH=$site:$peers_site PYTHONUNBUFFERED=1
install_peers() {  # unchanged wheels are not reinstalled: new file times would make the JIT rebuild everything
  local stamp
  stamp=$(cat .carry/peers/*.whl | md5sum)
  [ "$(cat "$peers_site/.stamp" 2> /dev/null)" = "$stamp" ] && { echo "peers already installed"; return 0; }
  rm -rf "$peers_site"
  local wheels=(.carry/peers/flashinfer_python-*.whl .carry/peers/apache_tvm_ffi-*.whl)
  python3 -c 'import requests, pynvml' 2> /dev/null || wheels=(.carry/peers/*.whl)  # the image has them, normally
  python3 -m pip install -q --no-index --no-deps --no-compile --target "$peers_site" "${wheels[@]}" &&
    echo "$stamp" > "$peers_site/.stamp"
}

for stage in $stages; do
  case $stage in
    info) run info bash -c "nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; python3 -m dsv4ext info" ;;
    check) run check python3 -m dsv4ext check ;;
    gtest)
      for t in .carry/bin/test_*; do
        [ -x "$t" ] && run "gtest_$(basename "$t")" "$t" --gtest_brief=1
      done ;;
    test) run test python3 -m pytest ${TESTS:-tests/python} -q -rs -p no:cacheprovider ;;
    sanitize)
      run memcheck compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py
      run racecheck compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py ;;
    bench)
      for b in benchmarks/bench_*.py; do
        [ "$b" != benchmarks/bench_peers.py ] && run "$(basename "$b" .py)" python3 "$b" --out "$OUT"
      done ;;
    cli-bench) run cli_bench python3 -m dsv4ext bench --device cuda --json "$OUT/bench_cli.json" ;;
    peers)
      run peers_install install_peers
      run peers_jit python3 -m dsv4ext.bench.flashinfer_peer ;;
    peers-cub)
      DSV4EXT_PEERS_CUB=1 setsid nohup python3 -m dsv4ext.bench.flashinfer_peer > /tmp/dsv4ext-peers/cub_build.log 2>&1 &
      echo "=== peers-cub: cub_topk.cu build started (pid $!), log /tmp/dsv4ext-peers/cub_build.log" ;;
    peers-bench) run bench_peers python3 benchmarks/bench_peers.py --out "$OUT" ;;
    *) echo "unknown stage $stage"; status=1 ;;
  esac
done
exit $status
