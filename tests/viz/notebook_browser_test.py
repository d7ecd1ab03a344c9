#!/usr/bin/env python3
"""The tour notebook's HTML export in a real browser (headless Chromium through Selenium).

    notebook_browser_test.py TOUR_HTML WORKDIR

TOUR_HTML is the executed notebook exported by python_notebook_test (run_notebook.py). Each
drawing is an interactive page in its own iframe; in the TV map's and the tiled MMA's,
hovering a cell must highlight what it does in a page the CLI writes (the thread's cells; the
thread in A, B and C), and clicking must isolate the thread. Exits 77 (ctest: skipped) when
Selenium, Chromium or chromedriver is missing or the export is absent (the notebook test was
skipped); 1 on any failed assertion.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import SKIP, Browser, By  # noqa: E402  (exits 77 without Selenium)

tour = sys.argv[1]
if not os.path.exists(tour):
    print(f"skip: {tour} is absent (python_notebook_test exports it; it was skipped or not run)")
    sys.exit(SKIP)
b = Browser("", sys.argv[2])
check, count, cell, hover = b.check, b.count, b.cell, b.hover

with b:
    driver = b.driver
    b.open(tour)
    frames = driver.find_elements(By.CSS_SELECTOR, "iframe")
    check(len(frames) >= 6, f"the export holds the drawings' pages ({len(frames)} iframes)")

    def enter(predicate):
        """Switches into the first frame whose page satisfies predicate(); None when none does."""
        driver.switch_to.default_content()
        for f in driver.find_elements(By.CSS_SELECTOR, "iframe"):
            driver.switch_to.default_content()
            driver.execute_script("arguments[0].scrollIntoView()", f)
            driver.switch_to.frame(f)
            if predicate():
                return f
        driver.switch_to.default_content()
        return None

    # The TV map: 128 cells, one panel; T5 V0 sits at (1,2).
    found = enter(lambda: count("g.cell") == 128 and count("svg.panel") == 1)
    check(found is not None, "a frame holds the TV map (128 cells, one panel)")
    if found is not None:
        c = cell(0, 1, 2)
        check(c.get_attribute("data-t") == "5", "cell (1,2) is thread 5")
        hover(c)
        check(count("g.cell.same-thread") == 4 and count('g.cell.same-thread[data-t="5"]') == 4,
              "hover T5 in the notebook: its 4 cells outlined")
        c.click()
        check(count("g.cell.dim") == 128 - 4, "click T5: every other thread's cells dimmed")
        # No page fetches anything: every src/href inside the frame is absent.
        refs = driver.execute_script(
            "return Array.from(document.querySelectorAll('[src],[href]')).map(e=>e.getAttribute('src')||e.getAttribute('href'))")
        check(not refs, f"the TV map's frame references nothing ({refs[:3]})")

    # The tiled MMA: three panels (A, B, C); hovering a thread of C highlights it in each.
    found = enter(lambda: count('g.cell[data-p="2"]') > 0 and count('g.cell[data-t="127"]') > 0)
    check(found is not None, "a frame holds the 128-thread tiled MMA (A, B and C)")
    if found is not None:
        hover(cell(2, 0, 0))
        panels = driver.execute_script(
            "return Array.from(new Set(Array.from(document.querySelectorAll('g.cell.same-thread'))"
            ".map(e=>e.getAttribute('data-p')))).sort()")
        check(panels == ["0", "1", "2"], f"hover C's (0,0): its thread highlighted in A, B and C (panels {panels})")
    driver.switch_to.default_content()
