"""bench/suite_chart.py: the suite's CSV as an SVG bar chart (well-formed XML, one bar per
shape, bar heights proportional to the ratios, the tuned ticks where the CSV has them) and its
refusals (a missing column, a ratio that is not a positive number: exit 1, no file written).
CSVs with the spread columns draw a line from the lowest to the highest ratio of the runs of
pairs, as long as the spread; CSVs without them draw as before."""
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom

ROOT = sys.argv[1]
SCRIPT = os.path.join(ROOT, "bench", "suite_chart.py")
HEADER = "name,m,n,k,ratio,tflops,tflops_cublas,schedule,ratio_tuned,schedule_tuned\n"


def run(csv_text, out):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(csv_text)
    try:
        return subprocess.run([sys.executable, SCRIPT, f.name, "-o", out], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "s.svg")
    rows = [("llama3-8b.qkv", 64, 6144, 4096, 0.5, "ping-pong 64x128", "0.9", "stream-k cooperative 128x128"),
            ("llama3-8b.qkv", 128, 6144, 4096, 1.0, "cooperative 128x256", "", ""),
            ("issue", 8192, 8192, 8192, 0.25, "cooperative 128x256", "0.25", "cooperative 128x256")]
    text = HEADER + "".join(f"{n},{m},{nn},{k},{r},1,1,{s},{rt},{st}\n" for n, m, nn, k, r, s, rt, st in rows)
    p = run(text, out)
    assert p.returncode == 0, p.stderr
    doc = xml.dom.minidom.parse(out)  # well-formed (the labels' "<" escaped)
    bars = [r for r in doc.getElementsByTagName("rect") if r.getElementsByTagName("title")]
    assert len(bars) == 3, len(bars)
    heights = [float(b.getAttribute("height")) for b in bars]
    assert abs(heights[0] / heights[1] - 0.5) < 1e-3 and abs(heights[2] / heights[1] - 0.25) < 1e-3, heights
    ticks = [t for t in doc.getElementsByTagName("line") if t.getElementsByTagName("title")]
    assert len(ticks) == 2, len(ticks)  # the rows with a tuned ratio
    def refused(cases):  # each CSV exits 1 with its message and leaves no file
        for bad, what in cases:
            out2 = os.path.join(d, "bad.svg")
            p = run(bad, out2)
            assert p.returncode == 1 and what in p.stderr, (what, p.returncode, p.stderr)
            assert not os.path.exists(out2), "a refused CSV leaves no file"
    refused([(HEADER.replace("ratio,", "ratios,", 1) + "a,1,1,1,1,1,1,x,,\n", "missing columns"),
             (HEADER + "a,1,1,1,-1,1,1,x,,\n", "not a positive number"),
             (HEADER + "a,1,1,1,nan,1,1,x,,\n", "not a positive number"),
             (HEADER + "a,1,x,1,1,1,1,x,,\n", "invalid literal")])
    # the spread columns (after the first ten): one line per spread given, its length the spread's
    NEW = HEADER.rstrip("\n") + ",ratio_lo,ratio_hi,ratio_tuned_lo,ratio_tuned_hi,pairs,pairs_tuned\n"
    text = NEW + ("llama3-8b.qkv,64,6144,4096,0.5,1,1,pp,0.6,pp,0.4,0.6,0.5,0.7,900,900\n"
                  "issue,8192,8192,8192,1.0,1,1,coop,,,0.9,1.0,,,15,\n")
    p = run(text, out)
    assert p.returncode == 0, p.stderr
    doc = xml.dom.minidom.parse(out)
    spreads = [e for e in doc.getElementsByTagName("path") if e.getAttribute("class") == "spread"]
    assert len(spreads) == 3, len(spreads)
    bars = [r for r in doc.getElementsByTagName("rect") if r.getElementsByTagName("title")]
    unit = float(bars[1].getAttribute("height"))  # the ratio 1.0 bar's height
    lengths = []
    for e in spreads:
        _, _, y0, _, y1 = e.getAttribute("d").split()
        lengths.append(float(y0) - float(y1))
    assert all(abs(a - b) < 0.2 for a, b in zip(lengths, [0.2 * unit, 0.2 * unit, 0.1 * unit])), (lengths, unit)
    refused([(NEW + "a,1,1,1,1,1,1,x,,,0.9,,,,1,\n", "go together"),
             (NEW + "a,1,1,1,1,1,1,x,,,1.1,0.9,,,1,\n", "is not 0 <"),
             (NEW + "a,1,1,1,1,1,1,x,,,q,1,,,1,\n", "ratio_lo")])
    # the CSVs already in bench/data (before the spread columns) still draw
    for name in sorted(os.listdir(os.path.join(ROOT, "bench", "data"))):
        if name.startswith("suite_") and name.endswith(".csv"):
            p = run(open(os.path.join(ROOT, "bench", "data", name)).read(), out)
            assert p.returncode == 0, (name, p.stderr)
print("suite_chart: ok")
