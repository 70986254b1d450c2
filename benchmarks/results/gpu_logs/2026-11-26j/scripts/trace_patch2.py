exec(open('/tmp/vb/trace_patch3.py').read().replace("open(p,'w').write(s)", "pass"))
s=s.replace('__device__ unsigned long long g_tr[16];','__device__ unsigned long long g_tr[32];')
s=s.replace('      TileLoad<M> cur = next;\n','      TileLoad<M> cur = next;\n      if (warp == 0 && lane == 0 && j == 0) { asm volatile("" :: "r"(cur.r[0][0].x)); TR(12); }\n',1)
old='''              mma_bf16(chain[part][nt], x0[2], x1[2], x0[3], x1[3], b.z, b.w);
            }
          }
        }
'''
new='''              mma_bf16(chain[part][nt], x0[2], x1[2], x0[3], x1[3], b.z, b.w);
            }
          }
          if (i == 0 && warp == 0 && lane == 0 && j == 0) { asm volatile("" :: "f"(chain[0][0][0])); TR(13); }
        }
        if (warp == 0 && lane == 0 && j == 0) { asm volatile("" :: "f"(chain[0][kNTiles - 1][0])); TR(14); }
'''
assert old in s; s=s.replace(old,new,1)
old='''        sums[row] = v;
      }
      __syncwarp();
'''
new='''        sums[row] = v;
      }
      __syncwarp();
      if (lane == 0 && j == 0 && local == 0) TR(15);
'''
assert old in s; s=s.replace(old,new,1)
old='      const float w = owner_weight<M>(pp, da, sums, sum_sq, t, lane);\n'
assert old in s
s=s.replace(old, old+'      if (lane == 0 && j == 0 && local == 0) { asm volatile("" :: "f"(w)); TR(16); }\n',1)
s=s.replace('g_tr[9]-g_tr[0]); }','g_tr[9]-g_tr[0]); printf("TRACE2 T=%lld res %lld i0 %lld i3 %lld ownsum %lld ownw %lld\\n", (long long)pp.tokens, g_tr[12]-g_tr[1], g_tr[13]-g_tr[1], g_tr[14]-g_tr[1], g_tr[15]-g_tr[1], g_tr[16]-g_tr[1]); }')
assert 'TRACE2' in s
open(p,'w').write(s)
