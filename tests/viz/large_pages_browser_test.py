#!/usr/bin/env python3
"""Large HTML pages (past the canvas threshold: a canvas per panel, per-cell facts decoded by the
page) in a real browser (headless Chromium through Selenium).

    large_pages_browser_test.py TESSERA_CLI WORKDIR

A 512x512 layout, explain's page for a 3-stage swizzled tile_to_shape, the SM90 64x256
wgmma atom with A in registers, and a layout of offsets past 32 bits: each page stays under 2 MB, holds no element per cell, and a
hover (a synthetic mousemove: highlight and info line updated, next frame painted) takes under
50 ms (the median of five). Every cell's thread, value and offset on the page equal the CLI's
text table of the same drawing; hover, click, shift+click, Esc, wheel, drag and double-click do
what they do on small pages; two pages in sandboxed iframes (as the Python module shows them in
a notebook) work side by side. Exits 77 (ctest: skipped) when Selenium, Chromium or
chromedriver is missing; 1 on any failed assertion.
"""
import html
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import ActionChains, Browser, By, Keys  # noqa: E402  (exits 77 without Selenium)

b = Browser(sys.argv[1], sys.argv[2])
check, count = b.check, b.count
MAX_BYTES, MAX_HOVER_MS = 2 * 1024 * 1024, 50.0

LAYOUT = ["render", "(512,512):(512,1)", "--force"]
EXPLAIN = ["explain", "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64,3))"]
ATOM = ["mma", "SM90_64x256x16_F16F16F16_RS"]
WIDE = ["render", "(64,128):(-4294967296,1)"]  # offsets past 32 bits, negative
pages = {"layout": b.draw("layout.html", *LAYOUT), "explain": b.draw("explain.html", *EXPLAIN),
         "atom": b.draw("atom.html", *ATOM), "wide": b.draw("wide.html", *WIDE)}


def text_tables(args, name):
    """The CLI's text drawing of the same diagram: per panel, its rows of cell strings."""
    path = b.draw(name, *args, "-f", "txt")
    panels = []
    for line in open(path, encoding="utf-8"):
        if re.match(r"^\s+\d+(\s+\d+)*\s*$", line):  # a header row of column indices: a new panel
            panels.append([])
        elif re.match(r"^\s*\d+\s+\|", line):
            panels[-1].append([x.strip() for x in line.split("|")[1:-1]])
    return panels


def agrees(page_cell, text_cell):
    """A page's 't|v|o' against a text-table cell: 'T5V3' names the thread and value (the page
    also knows the tile index, which the table does not show), a number the offset."""
    m = re.match(r"^T(\d+)V(\d+)$", text_cell)
    if m:
        return page_cell.split("|")[:2] == list(m.groups())
    return not text_cell or page_cell == "||" + text_cell


def hover_times(cells):
    return [b.hover_cell(*c) for c in cells]


def check_page(key, args, hover_cells):
    """Size, no element per cell, every cell against the text table, hover latency."""
    page = pages[key]
    size = os.path.getsize(page)
    check(size < MAX_BYTES, "%s: %d bytes (< 2 MB)" % (key, size))
    b.check_self_contained(page)
    t0 = time.time()
    b.open(page)
    ok = b.wait_cells()
    check(ok, "%s: the page decoded its cell data (%.2f s from opening)" % (key, time.time() - t0))
    if not ok:
        return
    tables = text_tables(args, key + ".txt")
    cells = sum(len(r) for t in tables for r in t)
    check(count("*") * 10 < cells, "%s: %d elements for %d cells" % (key, count("*"), cells))
    shapes = b.script("return Array.from(document.querySelectorAll('foreignObject.cells')).map(f=>[+f.dataset.rows,+f.dataset.cols])")
    check(shapes == [[len(t), len(t[0])] for t in tables], "%s: a canvas per panel, of the text tables' shapes" % key)
    bad = []
    for p, t in enumerate(tables):
        got = b.panel_cells(p)
        want = [x for row in t for x in row]
        bad += ["%d:%d %s vs %s" % (p, k, g, w) for k, (g, w) in enumerate(zip(got, want)) if not agrees(g, w)]
        bad += [] if len(got) == len(want) else ["panel %d: %d cells vs %d" % (p, len(got), len(want))]
    check(not bad, "%s: every cell's thread, value and offset equal the text table's (%s)" % (key, bad[:3]))
    ms = hover_times(hover_cells)
    check(statistics.median(ms) < MAX_HOVER_MS,
          "%s: hover to painted highlight %s ms (median < %d)" % (key, ", ".join("%.1f" % x for x in ms), MAX_HOVER_MS))


with b:
    d = b.driver
    # --- the 512x512 layout: offset r*512+c at (r,c), hover outlines that one cell -------------
    check_page("layout", LAYOUT, [(0, 3, 5), (0, 511, 0), (0, 200, 300), (0, 0, 511), (0, 77, 77)])
    b.hover_cell(0, 3, 5)
    info = b.text_of("info")
    check("cell (3,5)" in info and "offset 1541" in info and "(3,5) coord (3,5) index 1541" in info,
          "layout: the info line shows the cell, its offset and its tooltip: " + info.replace("\n", " | "))
    check(b.outlined() == {"thread": ["0:3,5"], "pair": []}, "layout: hovering offset 1541 outlines its one cell")
    svg = b.find("svg.panel")
    before = b.view_box(svg)
    b.wheel_zoom_in(svg)
    zoomed = [float(x) for x in b.view_box(svg).split()]
    check(zoomed[2] < float(before.split()[2]), "layout: the wheel zooms in")
    b.hover_cell(0, 300, 200)  # the pointer is mapped through the zoomed view
    check("cell (300,200)" in b.text_of("info") and "offset 153800" in b.text_of("info"),
          "layout: after zooming, hovering finds the cell under the pointer")
    ActionChains(d).move_to_element(svg).click_and_hold().move_by_offset(40, 25).release().perform()
    panned = [float(x) for x in b.view_box(svg).split()]
    check(panned[0] < zoomed[0] and panned[1] < zoomed[1], "layout: drag pans the view")
    check(b.script("return tesseraCells.dimmed") == 0 and b.text_of("state") == "", "layout: a drag is not a click")
    ActionChains(d).double_click(svg).perform()
    check(b.view_box(svg) == before, "layout: double-click resets the view")

    # --- explain: a canvas per step; hovering an offset outlines it in every panel -------------
    check_page("explain", EXPLAIN, [(0, 1, 1), (1, 100, 150), (2, 64, 64), (3, 1, 1), (1, 5, 5)])
    b.hover_cell(1, 1, 1)
    off = b.page_cell(1, 1, 1)["o"]
    got = sorted(b.outlined()["thread"])
    want = sorted("%d:%d,%d" % (p, r, c) for p, t in enumerate(text_tables(EXPLAIN, "explain.txt"))
                  for r, row in enumerate(t) for c, x in enumerate(row) if x == off)
    check(got == want and len({x.split(":")[0] for x in got}) > 2,
          "explain: hovering offset %s outlines exactly its %d cells, in %d panels" % (off, len(want), len({x.split(":")[0] for x in got})))

    # --- the SM90 atom: a thread across A and C; click, shift+click, Esc ----------------------
    check_page("atom", ATOM, [(2, 9, 3), (0, 40, 7), (2, 63, 255), (2, 0, 0), (0, 0, 0)])
    tables = text_tables(ATOM, "atom.txt")
    holds = lambda pred: sorted("%d:%d,%d" % (p, r, c) for p, t in enumerate(tables) for r, row in enumerate(t)
                                for c, x in enumerate(row) if re.match(r"^T\d+V\d+$", x) and pred(*map(int, x[1:].split("V"))))
    b.hover_cell(2, 9, 3)  # C (9,3): T5 V3
    info = b.text_of("info")
    check("thread 5" in info and "value 3" in info and "warp 0" in info, "atom: info names T5 V3: " + info.replace("\n", " | "))
    o = b.outlined()
    check(sorted(o["thread"] + o["pair"]) == holds(lambda t, v: t == 5) and {x[0] for x in o["thread"]} == {"0", "2"},
          "atom: hovering T5 outlines all its %d cells, in A and in C" % len(holds(lambda t, v: t == 5)))
    check(o["pair"] == holds(lambda t, v: t == 5 and v == 3), "atom: and T5 V3 in red: %s" % o["pair"])
    total = b.script("var n=0;document.querySelectorAll('foreignObject.cells').forEach(f=>n+=f.dataset.rows*f.dataset.cols);return n")
    b.click_cell(2, 9, 3)
    check(b.script("return tesseraCells.dimmed") == total - len(holds(lambda t, v: t == 5)) and "thread 5" in b.text_of("state"),
          "atom: click isolates thread 5 (every other cell dimmed)")
    b.click_cell(2, 9, 3)
    check(b.script("return tesseraCells.dimmed") == 0 and b.text_of("state") == "", "atom: clicking again shows all")
    b.click_cell(2, 9, 3, shift=True)
    check(b.script("return tesseraCells.dimmed") == total - len(holds(lambda t, v: t // 32 == 0)) and "warp 0" in b.text_of("state"),
          "atom: shift+click isolates warp 0")
    ActionChains(d).send_keys(Keys.ESCAPE).perform()
    check(b.script("return tesseraCells.dimmed") == 0 and b.text_of("state") == "", "atom: Escape shows all")
    check(count("g.legend") == 1 and "blue lines: warp boundaries" in d.page_source, "atom: the legend is drawn")

    # --- offsets past 32 bits, negative: exact on the page and in the info line -------------
    check_page("wide", WIDE, [(0, 63, 1), (0, 1, 127), (0, 30, 30), (0, 0, 0), (0, 9, 9)])
    b.hover_cell(0, 63, 1)
    info = b.text_of("info")
    check("offset -270582939647" in info and "index -270582939647" in info,
          "wide: the info line shows offset -63*2^32+1 exactly: " + info.replace("\n", " | "))

    # --- two large pages in sandboxed iframes, as tessera's _repr_html_ embeds them ------------
    frames = "".join('<iframe srcdoc="%s" style="width:100%%;height:700px" sandbox="allow-scripts"></iframe>'
                     % html.escape(open(pages[k], encoding="utf-8").read(), quote=True) for k in ("layout", "atom"))
    notebook = os.path.join(b.work, "notebook.html")
    with open(notebook, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html><html><body>" + frames + "</body></html>")
    b.open(notebook)
    infos = []
    for k, (p, r, c) in enumerate([(0, 3, 5), (2, 9, 3)]):
        d.switch_to.default_content()
        d.switch_to.frame(d.find_elements(By.CSS_SELECTOR, "iframe")[k])
        check(b.wait_cells(), "notebook: frame %d decoded its data in the sandbox" % k)
        b.hover_cell(p, r, c)
        infos.append(b.text_of("info"))
    d.switch_to.default_content()
    d.switch_to.frame(d.find_elements(By.CSS_SELECTOR, "iframe")[0])
    check("offset 1541" in infos[0] and "thread 5" in infos[1] and b.text_of("info") == infos[0],
          "notebook: each frame answers its own hover, the other untouched")
    d.switch_to.default_content()
