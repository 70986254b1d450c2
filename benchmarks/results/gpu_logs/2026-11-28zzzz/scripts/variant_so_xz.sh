#!/usr/bin/env bash
# mkso.sh NAME...: the variants' _C.abi3.so into one solid xz (/work/main/.carry/so.tar.xz)
set -e
rm -rf /tmp/so && mkdir -p /tmp/so
for v in "$@"; do unzip -p /work/main/.carry/w/$v/*.whl dsv4ext/_C.abi3.so > /tmp/so/$v.so; done
cd /tmp/so && tar cf - *.so | xz -6 --lzma2=preset=6,dict=256MiB -T1 > /work/main/.carry/so.tar.xz
ls -la /work/main/.carry/so.tar.xz
