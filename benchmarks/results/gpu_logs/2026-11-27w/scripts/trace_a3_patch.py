"""ta3 (session 23; timing diagnostics only): session 22's phase stamps (../../2026-11-27u/scripts/trace_decode_td_patch.py
and ../../2026-11-27v/scripts/trace_decode_td2_patch.py, run here with their anchors moved to a3's code) plus, in the
all-to-all exchange, stamps after the sends (12) and after the receive mbarrier (13). Run in a tree copy of main."""
W = "/work/main/benchmarks/results/gpu_logs"
td = open(f"{W}/2026-11-27u/scripts/trace_decode_td_patch.py").read()
td = td.replace("using SharedFor = Shared<kThreads, G::kClustered>;",
                "using SharedFor = Shared<kThreads, G::kClustered, G::kClustered && !G::kA2a>;")
exec(compile(td, "td", "exec"), {})
td2 = open(f"{W}/2026-11-27v/scripts/trace_decode_td2_patch.py").read()
td2 = td2.replace('runpy.run_path("/work/main/benchmarks/results/gpu_logs/2026-11-27u/scripts/trace_decode_td_patch.py")', "")
td2 = td2.replace("      if (!g.push()) {", "      if constexpr (G::kA2a) {")
exec(compile(td2, "td2", "exec"), {})
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = """        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        const uint32_t word"""
assert s.count(old) == 1
s = s.replace(old, """        td_mark(12);
        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        td_mark(13);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        const uint32_t word""")
open(p, "w").write(s)
print("patched ta3")
