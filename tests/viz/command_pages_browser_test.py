#!/usr/bin/env python3
"""The HTML pages of `tessera explain`, `diff`, `gmem`, `tma` and `banks` in a real browser
(headless Chromium through Selenium).

    command_pages_browser_test.py TESSERA_CLI WORKDIR

Each page is held to what the command prints: explain's panels are its steps, diff's marked
cells are the ones its --json counts, gmem's outlined cells are the accesses its --json blames
for excess sectors, tma's hover outlines the box (copy) a cell belongs to, a banks cell names
the threads reaching its bank in its phase; hovering relates cells across panels. Exits 77 (ctest: skipped) when
Selenium, Chromium or chromedriver is missing; 1 on any failed assertion.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import ActionChains, Browser, By, Keys  # noqa: E402  (exits 77 without Selenium)

b = Browser(sys.argv[1], sys.argv[2])
check, count = b.check, b.count

EXPR = "logical_divide((8,8):(1,8), (4:1,2:1))"
explain_page = b.draw("explain.html", "explain", EXPR)
A, B = "(4,8):(1,4)", "(4,8):(8,1)"
diff_page = b.draw("diff.html", "diff", A, B)
TILE, TA, TB = "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(8,16))"
diff_tv_page = b.draw("diff_tv.html", "diff", "--tv", TILE, TA, TB)
GMEM = ["(32,32):(1,32)", "--tv", "(32,32):(1,32)", "--bits", "32", "--base", "16"]  # a column per warp, 16 B off
gmem_page = b.draw("gmem.html", "gmem", *GMEM)
TMA = ["(4096,4096):(1,4096)", "Sw<3,3,3> o ((64,2),64):((1,4096),64)"]  # two 64x64 boxes
tma_page = b.draw("tma.html", "tma", *TMA)
BANKS = ["(8,64):(64,1)", "--tv", "((8,4),(8,2)):((1,64),(8,256))", "--vec", "8"]  # ldmatrix rows: 8-way
banks_page = b.draw("banks.html", "banks", *BANKS)
for page in (explain_page, diff_page, diff_tv_page, gmem_page, tma_page, banks_page):
    b.check_self_contained(page)

# What the commands print, to hold the pages to.
steps = []  # (number, expression) of each step whose result is a layout
for line in b.run_cli("explain", EXPR).stdout.splitlines():
    m = re.match(r"^\s*(\d+(?:\.\d+)*)  (.*) = (.*)$", line)
    if m and ":" in m.group(3):
        steps.append((m.group(1), m.group(2)))
diff_json = json.loads(b.run_cli("diff", A, B, "--json").stdout)
diff_tv_json = json.loads(b.run_cli("diff", "--tv", TILE, TA, TB, "--json").stdout)
gmem_json = json.loads(b.run_cli("gmem", *GMEM, "--json").stdout)
excess_accesses = sum(len(i["excess_threads"]) for i in gmem_json["instructions"])

MISMATCH = 'svg.panel rect[fill="none"][stroke="#7f0000"]'  # viz::Highlight::mismatch
CONFLICT = 'svg.panel rect[fill="none"][stroke="#d62728"]'  # viz::Highlight::conflict

with b:
    # --- explain: a panel per input and per layout-valued step, hover across panels -------
    b.open(explain_page)
    titles = b.panel_titles()
    check(len(steps) >= 10, "explain printed its steps (%d with a layout result)" % len(steps))
    missing = [n + "  " + e for n, e in steps if n + "  " + e not in titles]
    check(not missing, "explain: every step with a layout result has its panel, titled 'N  expression' %s" % missing[:3])
    step_titles = [t for t in titles if re.match(r"^\d+(\.\d+)*  ", t)]
    check(step_titles == [n + "  " + e for n, e in steps], "explain: the step panels are in the printed order")
    check(titles[0] == "input (8,8):(1,8)", "explain: the first panel is the input layout (%s)" % titles[0])
    result = titles.index("1  " + steps[0][1])
    c = b.find('g.cell[data-p="%d"][data-r="1"][data-c="1"]' % result)
    offset = c.get_attribute("data-o")
    b.hover(c)
    outlined = b.script("return Array.from(document.querySelectorAll('g.cell.same-offset')).map(g=>g.dataset.p+':'+g.dataset.o)")
    check(len(outlined) == count('g.cell[data-o="%s"]' % offset) and all(x.endswith(":" + offset) for x in outlined),
          "explain: hovering offset %s outlines exactly the cells of offset %s, in every panel (%d)" % (offset, offset, len(outlined)))
    check("0:" + offset in outlined, "explain: ... including the input's cell of that offset")
    check("offset " + offset in b.text_of("info"), "explain: the info line shows the offset")
    panels = b.driver.find_elements(By.CSS_SELECTOR, "svg.panel")
    others = [b.view_box(p) for p in panels[:result]]
    before = b.view_box(panels[result])
    b.wheel_zoom_in(panels[result])
    check(b.view_box(panels[result]) != before and [b.view_box(p) for p in panels[:result]] == others,
          "explain: the wheel zooms the panel under it, no other")

    # --- diff of layouts: the marked cells are the differing indices ----------------------
    b.open(diff_page)
    check(b.panel_titles() == ["A: " + A, "B: " + B], "diff: panels A and B, titled with their layouts")
    check(count(MISMATCH) == 2 * diff_json["differing"] and diff_json["differing"] == 30,
          "diff: %d cells marked in each panel, the %d indices --json counts" % (count(MISMATCH) // 2, diff_json["differing"]))
    b.hover(b.cell(0, 0, 1))  # A(0,1) = 4; B has offset 4 at (0,4)
    outlined = b.script("return Array.from(document.querySelectorAll('g.cell.same-offset')).map(g=>g.dataset.p+':'+g.dataset.r+','+g.dataset.c)")
    check(sorted(outlined) == ["0:0,1", "1:0,4"], "diff: hovering A's offset 4 outlines B's cell of offset 4 (%s)" % outlined)
    check("B gives 1" in b.text_of("info"), "diff: the info line says what B gives at that index")
    check(diff_json["summary"] in b.driver.page_source, "diff: the verdict is on the page")

    # --- diff of TV maps: a thread is highlighted in A and B ------------------------------
    b.open(diff_tv_page)
    check(count("svg.panel") == 2, "diff --tv: two panels")
    check(count(MISMATCH) == 2 * diff_tv_json["differing"],
          "diff --tv: the marked tile cells are the %d (thread,value) pairs that land elsewhere" % diff_tv_json["differing"])
    b.hover(b.find('g.cell[data-p="0"][data-t="5"][data-v="1"]'))
    panels_t5 = b.script("return Array.from(new Set(Array.from(document.querySelectorAll('g.cell.same-thread')).map(g=>g.dataset.p))).sort()")
    check(panels_t5 == ["0", "1"] and count("g.cell.same-thread") == count('g.cell[data-t="5"]'),
          "diff --tv: hovering T5 outlines all of T5's cells in A and in B")
    check(count("g.cell.same-pair") == 2, "diff --tv: T5 V1 is one cell in A and one in B")

    # --- gmem: the outlined cells are the accesses in partly used sectors ----------------
    b.open(gmem_page)
    check(count("g.cell") == 32 * 32 and count("svg.panel") == 1, "gmem: one 32x32 panel")
    check(excess_accesses > 0 and count(CONFLICT) == excess_accesses,
          "gmem: %d cells outlined, the accesses --json lists as causing excess (%d)" % (count(CONFLICT), excess_accesses))
    c = b.cell(0, 1, 0)  # (1,0): thread 1, value 0
    b.hover(c)
    check(count("g.cell.same-thread") == count('g.cell[data-t="1"]') == 32, "gmem: hovering T1 outlines its 32 cells")
    info = b.text_of("info")
    check("thread 1" in info and "sector 0" in info and "partly used sector" in info,
          "gmem: the info line names the thread, the sector and why it is outlined: " + info.replace("\n", " | "))
    c.click()
    check(count("g.cell.dim") == 32 * 32 - 32, "gmem: click isolates thread 1")
    ActionChains(b.driver).send_keys(Keys.ESCAPE).perform()
    check(count("g.cell.dim") == 0, "gmem: Escape shows all")

    # --- tma: hovering a cell outlines the box (copy) that fills it, the info names it -----
    # 8192 cells: past the canvas threshold, so the page's cells are a canvas (tesseraCells).
    b.open(tma_page)
    check(b.wait_cells(), "tma: the page decoded its cell data")
    check(count("g.cell") == 0 and b.script("return Array.from(document.querySelectorAll('foreignObject.cells'))"
                                            ".map(f=>f.dataset.rows+'x'+f.dataset.cols)") == ["128x64"],
          "tma: one 128x64 panel, drawn on a canvas")
    box = lambda k: sorted("0:%d,%d" % (r, c) for r in range(64 * k, 64 * k + 64) for c in range(64))  # box k: rows 64k..
    b.hover_cell(0, 70, 3)  # row 70: the second box
    check(sorted(b.outlined()["thread"]) == box(1), "tma: hovering a cell of box 1 outlines box 1's %d cells (%d)"
          % (64 * 64, len(b.outlined()["thread"])))
    info = b.text_of("info")
    offset = b.page_cell(0, 70, 3)["o"]
    check("box 1" in info and ("offset " + offset) in info and "copy 2 of 2" in info,
          "tma: the info line names the box and the cell's own offset: " + info.replace("\n", " | "))
    b.hover_cell(0, 5, 60)
    check(sorted(b.outlined()["thread"]) == box(0), "tma: then box 0's cells")

    # --- banks: a cell names its thread and the threads reaching its bank in that phase -----
    b.open(banks_page)
    b.hover(b.cell(0, 0, 0))
    info = b.text_of("info")
    check("thread 0" in info and "threads reaching bank 0 in this phase: T0 T1 T2 T3 T4 T5 T6 T7" in info,
          "banks: the info line answers which lanes hit the bank: " + info.replace("\n", " | "))
    check(count("g.cell.same-thread") == count('g.cell[data-t="0"]') == 16, "banks: hovering outlines T0's 16 cells")
