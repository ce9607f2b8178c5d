import subprocess, json, time, statistics, sys
swift = open('samples/sample.swift').read()
ts = open('samples/sample.ts').read()
def blocks(n):
    # unique per block so nothing can be cached; alternate swift/ts
    out = []
    for i in range(n):
        if i % 2 == 0: out.append({"lang": "swift", "code": f"// post {i}\n" + swift})
        else: out.append({"lang": "ts", "code": f"// post {i}\n" + ts})
    return out
t0 = time.perf_counter()
p = subprocess.Popen(["nice","-n","10","python3","pyg_worker.py"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def call(bl, tokens=False):
    p.stdin.write(json.dumps({"blocks": bl, "tokens": tokens}) + "\n"); p.stdin.flush()
    return json.loads(p.stdout.readline())["results"]
call([{"lang":"swift","code":"let x = 1"}]); call([{"lang":"ts","code":"let x = 1"}])
print(f"worker startup + first call (lexer load): {(time.perf_counter()-t0)*1000:.1f} ms")
# per-block latency, batch of 1, median of 500
for lang, code in (("swift", swift), ("ts", ts)):
    for tok in (False, True):
        ts_ = []
        for i in range(500):
            a = time.perf_counter(); call([{"lang": lang, "code": f"// {i}\n"+code}], tok); ts_.append(time.perf_counter()-a)
        print(f"{lang} batch=1 tokens={tok}: median {statistics.median(ts_)*1000:.3f} ms/block (n=500, p90 {sorted(ts_)[450]*1000:.3f})")
# throughput for 10,000 blocks at various batch sizes, 3 runs each
N = 10000
bl = blocks(N)
for bs in (1, 10, 100, 1000):
    runs = []
    for r in range(3):
        a = time.perf_counter()
        for i in range(0, N, bs): call(bl[i:i+bs])
        runs.append(time.perf_counter()-a)
    print(f"10,000 blocks (half swift/half ts) batch={bs}: median {statistics.median(runs):.2f} s over 3 runs {['%.2f'%x for x in runs]} -> {statistics.median(runs)/N*1e6:.0f} us/block")
p.stdin.close(); p.wait()
