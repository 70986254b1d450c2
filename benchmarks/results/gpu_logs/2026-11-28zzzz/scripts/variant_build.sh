#!/usr/bin/env bash
# build.sh NAME "cmds": a variant wheel of main's tree + cmds into /work/main/.carry/w/NAME
set -eo pipefail
NAME=$1; CMDS=$2
D=/tmp/vb/$NAME
rm -rf $D; mkdir -p $D
cd /work/main
git ls-files -co --exclude-standard | grep -v '^benchmarks/results/' | rsync -a --files-from=- . $D/
cd $D
eval "$CMDS"
if [ -d /work/main/build/cp310-abi3-linux_x86_64 ]; then
  mkdir -p build && cp -a /work/main/build/cp310-abi3-linux_x86_64 build/
  grep -rl "/work/main/" build | xargs sed -i "s#/work/main/#/tmp/vb/$NAME/#g" || true
fi
rm -rf /work/main/.carry/w/$NAME; mkdir -p /work/main/.carry/w/$NAME
PATH=/work/main/.venv/bin:$PATH pip wheel --no-build-isolation --no-deps -w /work/main/.carry/w/$NAME . > $D.log 2>&1
ls -la /work/main/.carry/w/$NAME
