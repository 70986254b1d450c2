#!/usr/bin/env bash
# Session 31, call 1 (H200): session 30's prepared probes as committed at 20da5d9 (benchmarks/cluster_occupancy.cu,
# benchmarks/fn_stream_engine.cu before this session's fix of its collapse release), no carry.
exec bash "$(dirname "$0")/../../2026-11-28zzzzz/scripts/next_s31_probe.sh"
