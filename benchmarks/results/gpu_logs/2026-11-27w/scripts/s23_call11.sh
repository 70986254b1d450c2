#!/usr/bin/env bash
# Session 23, call 11: so (the working tree: finish_candidates' overflow test by one __syncthreads_or instead of two
# barriers and a loop over the warps' counts; the all-to-all's send targets without a modulo) and su (so +
# su_patch.py: the receive loop unrolled) against ob (main): race23_decode.py on so and su, ab_decode.py two rounds,
# bench_topk.py two rounds. Carry .carry/w/{ob,so,su}.
set -u
exec bash "$(dirname "$0")/s23_call9.sh" ob so su
