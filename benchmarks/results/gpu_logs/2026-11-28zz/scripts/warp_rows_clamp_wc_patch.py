# wc: the one-warp / warp-group top-k rows count digits of 10, 11, 11 bits (from the top) so that every pass after the
# first bins a key by min((key - prefix) >> shift, kTopkBins): keys off the prefix land on the spare bin without a
# masked compare and a select (5 instructions a key instead of 7); the ordered write takes a key when key >= prefix
# (the prefix's bits below the mask are zero) instead of (key & mask) >= prefix. Exact either way (emulated in
# warp_rows_clamp_emulate.py); the write order and the ties are unchanged.
p = 'csrc/cuda/topk_warp_rows.cu'
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old[:70]
    s = s.replace(old, new)
rep('''struct WarpPick {''', '''// This file's digits: 10, 11 and 11 bits from the top (topk.cu's are 11, 11, 10). After the first pass the prefix's
// low 22 / 11 bits are zero, so (key - prefix) >> shift is the digit for a key on the prefix and at least kTopkBins for
// any other (below the prefix it wraps past 2^22 / 2^11): clamped, it is the spare bin.
constexpr int row_digit_shift(int pass) { return pass == 0 ? 22 : (pass == 1 ? 11 : 0); }
constexpr uint32_t row_digit_mask(int pass) { return pass == 0 ? 0x3ffu : 0x7ffu; }

struct WarpPick {''')
rep('''    const int shift = topk_digit_shift(pass);
    const uint32_t digit_mask = topk_digit_mask(pass);
    if (pass == 0) {  // every key counted
#pragma unroll
      for (int s = 0; s < kSteps; ++s) atomicAdd(&hist[key[s] >> 21], 1u);
    } else {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        // Lanes not counted add to a spare bin: no branch, and lanes of one bin aggregate in one atomic.
        const bool counted = (key[s] & mask) == prefix;
        atomicAdd(&hist[counted ? (key[s] >> shift) & digit_mask : kTopkBins], 1u);
      }
    }''', '''    const int shift = row_digit_shift(pass);
    const uint32_t digit_mask = row_digit_mask(pass);
    if (pass == 0) {  // every key counted
#pragma unroll
      for (int s = 0; s < kSteps; ++s) atomicAdd(&hist[key[s] >> 22], 1u);
    } else {
#pragma unroll
      for (int s = 0; s < kSteps; ++s)  // keys off the prefix on the spare bin: no branch, one atomic a bin
        atomicAdd(&hist[min((key[s] - prefix) >> shift, uint32_t(kTopkBins))], 1u);
    }''')
rep('''      for (int s = 0; s < kSteps; ++s) n_gt += __popc(__ballot_sync(0xffffffffu, (key[s] & mask) >= prefix));''',
    '''      for (int s = 0; s < kSteps; ++s) n_gt += __popc(__ballot_sync(0xffffffffu, key[s] >= prefix));''')
rep('''      const bool taken = (key[s] & mask) >= prefix;''', '''      const bool taken = key[s] >= prefix;''')
open(p, 'w').write(s)
print("patched wc")
