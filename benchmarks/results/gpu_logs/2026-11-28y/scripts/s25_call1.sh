#!/usr/bin/env bash
# Session 25, call 1: session 24's prepared next_xr.sh, run as it stands (xr1 / xr2: next_row_prefetch_patch.py,
# the four-block kernel prefetching its next row's first groups into L2, against t24b = main; race_xr.py plain and
# under three sanitizers, bimodal_clock.py, then s23_call9.sh's A/B). Carry .carry/w/{t24b,xr1,xr2}.
exec bash "$(dirname "$0")/../../2026-11-28x/scripts/next_xr.sh"
