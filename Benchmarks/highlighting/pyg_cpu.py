import subprocess, json, time, os, resource
swift = open('samples/sample.swift').read(); ts = open('samples/sample.ts').read()
bl = [{"lang": "swift" if i % 2 == 0 else "ts", "code": f"// post {i}\n" + (swift if i % 2 == 0 else ts)} for i in range(10000)]
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
for bs in (1, 100):
    p = subprocess.Popen(["python3", "pyg_worker.py"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def call(b):
        p.stdin.write(json.dumps({"blocks": b}) + "\n"); p.stdin.flush(); return p.stdout.readline()
    call(bl[:2]); c0 = cpu(p.pid); r0 = resource.getrusage(resource.RUSAGE_SELF); a = time.perf_counter()
    for i in range(0, 10000, bs): call(bl[i:i+bs])
    wall = time.perf_counter() - a; c1 = cpu(p.pid); r1 = resource.getrusage(resource.RUSAGE_SELF)
    client = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    print(f"batch={bs}: wall {wall:.2f} s, worker CPU {c1-c0:.2f} s ({(c1-c0)/10:.2f} ms/block), client CPU {client:.2f} s")
    p.stdin.close(); p.wait()
