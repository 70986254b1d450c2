#!/usr/bin/env bash
# Session 28: install main's wheel (.carry/w/$BASE, BASE=m27 unless set) into /tmp/ab/$BASE and, for every variant .so
# in .carry/so.tar.xz (one solid xz: the variants share most bytes), a copy of it with that .so (/tmp/ab/NAME).
# Argument: variant names.
set -u
BASE=${BASE:-m27}
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$BASE .carry/w/$BASE/*.whl
mkdir -p /tmp/so && python3 -c "import lzma, tarfile; tarfile.open(fileobj=lzma.open('.carry/so.tar.xz')).extractall('/tmp/so')"
for v in "$@"; do rm -rf /tmp/ab/$v; cp -r /tmp/ab/$BASE /tmp/ab/$v; cp /tmp/so/$v.so /tmp/ab/$v/dsv4ext/_C.abi3.so; done
