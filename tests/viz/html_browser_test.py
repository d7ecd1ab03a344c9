#!/usr/bin/env python3
"""The HTML page in a real browser (headless Chromium through Selenium).

    html_browser_test.py TESSERA_CLI WORKDIR

Draws pages with the CLI, opens them offline and asserts what hovering, clicking, the
wheel and double-click change. Exits 77 (ctest: skipped) when Selenium, Chromium or
chromedriver is missing; 1 on any failed assertion.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import ActionChains, Browser, By, Keys  # noqa: E402  (exits 77 without Selenium)

b = Browser(sys.argv[1], sys.argv[2])
check, count, cell, hover, view_box = b.check, b.count, b.cell, b.hover, b.view_box

tv_page = b.draw("tv.html", "render")  # the SM80 16x8x8 C fragment
mma_page = b.draw("mma.html", "mma", "SM80_16x8x8_F16F16F16F16_TN", "--atoms", "2x1")
layout_page = b.draw("layout.html", "render", "(4,4):(1,0)")  # offsets repeat
ss_page = b.draw("ss.html", "mma", "SM90_64x8x16_F32BF16BF16_SS")  # A, B from shared memory

# Self-contained: nothing is fetched (no src/href to anything but the page itself).
for page in (tv_page, mma_page, layout_page):
    b.check_self_contained(page)

with b:
    driver = b.driver
    # --- TV map: hover, click, shift-click, Escape -------------------------------------
    driver.get("file://" + os.path.abspath(tv_page))
    check(count("g.cell") == 128, "TV page has 128 cells")
    check(count("svg.panel") == 1, "one panel viewport")
    check(count("g.legend rect") == 32, "legend: 32 thread swatches")
    c = cell(0, 1, 2)  # (m,n) = (1,2): thread 5, value 0
    check(c.get_attribute("data-t") == "5" and c.get_attribute("data-v") == "0", "cell (1,2) is T5 V0")
    hover(c)
    same_t = count('g.cell[data-t="5"]')
    check(same_t == 4, "thread 5 holds 4 cells")
    check(count("g.cell.same-thread") == same_t, "hover T5: its 4 cells outlined")
    check(count("g.cell.same-pair") == 1, "hover T5 V0: exactly one (thread, value) cell")
    info = driver.find_element(By.ID, "info").text
    check("thread 5" in info and "value 0" in info and "cell (1,2)" in info and "bank" in info and "offset 33" in info,
          "info line shows coordinate, offset, thread, value and bank: " + info.splitlines()[0])
    hover(cell(0, 0, 0))
    check(count("g.cell.same-thread") == 4 and count('g.cell.same-thread[data-t="0"]') == 4,
          "moving to T0 moves the highlight")
    cell(0, 0, 0).click()
    check(count("g.cell.dim") == 128 - 4, "click T0: every other thread's cells dimmed")
    check("thread 0" in driver.find_element(By.ID, "state").text, "state says thread 0 is isolated")
    cell(0, 0, 0).click()
    check(count("g.cell.dim") == 0, "clicking again shows all")
    ActionChains(driver).key_down(Keys.SHIFT).click(cell(0, 3, 3)).key_up(Keys.SHIFT).perform()
    check(count("g.cell.dim") == 0 and "warp 0" in driver.find_element(By.ID, "state").text,
          "shift+click isolates warp 0 (the whole fragment is one warp)")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    check(driver.find_element(By.ID, "state").text == "", "Escape clears the isolation")

    # Zoom and pan through the panel's viewBox; double-click resets it.
    svg = driver.find_element(By.CSS_SELECTOR, "svg.panel")
    before = view_box(svg)
    b.wheel_zoom_in(svg)
    zoomed = view_box(svg)
    bw = [float(x) for x in before.split()]
    zw = [float(x) for x in zoomed.split()]
    check(zw[2] < bw[2] and zw[3] < bw[3], "wheel up zooms in: viewBox %s -> %s" % (before, zoomed))
    ActionChains(driver).move_to_element(svg).click_and_hold().move_by_offset(40, 25).release().perform()
    panned = [float(x) for x in view_box(svg).split()]
    check(panned[0] < zw[0] and panned[1] < zw[1] and abs(panned[2] - zw[2]) < 1e-6, "drag pans the view")
    check(count("g.cell.dim") == 0, "a drag is not a click")
    ActionChains(driver).double_click(svg).perform()
    check(view_box(svg) == before, "double-click resets the view")

    # --- MMA: hovering one thread highlights it in A, B and C ---------------------------
    driver.get("file://" + os.path.abspath(mma_page))
    check(count("svg.panel") == 3, "MMA page: A, B and C panels")
    c = cell(2, 0, 0)  # C (0,0): T0 V0
    hover(c)
    panels = driver.execute_script(
        "return Array.from(new Set(Array.from(document.querySelectorAll('g.cell.same-thread')).map(g=>g.dataset.p))).sort()")
    check(panels == ["0", "1", "2"], "hover C's T0: T0 highlighted in A, B and C (panels %s)" % panels)
    check(count("g.cell.same-thread") == count('g.cell[data-t="0"]'), "all of T0's cells, none other")
    t32 = driver.find_element(By.CSS_SELECTOR, 'g.cell[data-p="2"][data-t="32"]')
    ActionChains(driver).key_down(Keys.SHIFT).click(t32).key_up(Keys.SHIFT).perform()
    kept = count("g.cell:not(.dim)")
    check(kept == count('g.cell[data-w="1"]') and kept > 0, "shift+click T32: only warp 1's cells stay (%d)" % kept)
    check(count("g.legend") == 1, "legend present")

    # --- plain layout: hover highlights equal offsets ------------------------------------
    driver.get("file://" + os.path.abspath(layout_page))
    hover(cell(0, 1, 0))
    check(count("g.cell.same-offset") == 4, "(4,4):(1,0): hovering offset 1 highlights its 4 cells")

    # --- SM90 SS: an smem cell's byte offset belongs to its own buffer ------------------
    driver.get("file://" + os.path.abspath(ss_page))
    hover(cell(0, 0, 0))  # A (0,0): byte 0 of A's buffer
    check(count("g.cell.same-offset") == 1, "SS: hovering A's byte 0 outlines that cell only, not B's or C's")
    check("offset 0" in driver.find_element(By.ID, "info").text, "SS: the info line shows the byte offset")
    check(count("g.cell.same-thread") == 0, "SS: an smem cell has no thread")
