#!/usr/bin/env bash
# Session 30, call 2: session 29's prepared pg / sc / fc (../../2026-11-28zzzz/scripts/next_s30.sh): bits against pm,
# A/B two rounds, the tests of the ops each touches. Carry [".carry/w/pm", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash benchmarks/results/gpu_logs/2026-11-28zzzz/scripts/next_s30.sh
