#!/usr/bin/env bash
# Session 33, call 1, run as `s33_call1.sh cpg all rb` (pc and ca left out of the A/B by the carry limit; all = cpg +
# rb + pc): session 32's prepared A/B. Carry [".carry/w/m32", ".carry/so.tar.xz"].
exec bash "$(dirname "$0")/../../2026-12-07b/scripts/next_s33.sh" "$@"
