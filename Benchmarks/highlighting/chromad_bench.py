import http.client, json, re, time, statistics
c = http.client.HTTPConnection("127.0.0.1", 18080)
c.request("GET", "/"); r = c.getresponse(); body = r.read().decode()
cookie = r.getheader("Set-Cookie").split(";")[0]
tok = re.search(r'name="gorilla.csrf.Token" value="([^"]+)"', body).group(1)
def render(lang, text):
    c.request("POST", "/api/render", body=json.dumps({"language": lang, "style": "swapoff", "text": text, "classes": True}),
              headers={"Cookie": cookie, "X-CSRF-Token": tok, "Content-Type": "application/json", "Origin": "http://127.0.0.1:18080", "Referer": "http://127.0.0.1:18080/"})
    r = c.getresponse(); d = r.read()
    if r.status != 200: raise SystemExit(f"HTTP {r.status}: {d[:200]}")
    return json.loads(d)
print(list(render("Swift", "let x = 1").keys()), render("Swift", "let x = 1")["html"][:200])
for lang, path in (("Swift", "samples/sample.swift"), ("TypeScript", "samples/sample.ts")):
    code = open(path).read(); t = []
    for i in range(300):
        a = time.perf_counter(); render(lang, f"// {i}\n" + code); t.append(time.perf_counter() - a)
    print(f"chromad {lang}: median {statistics.median(t)*1000:.2f} ms/block over HTTP keep-alive (n=300)")
