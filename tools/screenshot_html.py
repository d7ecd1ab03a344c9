#!/usr/bin/env python3
"""A PNG of one of tessera's HTML pages as a browser shows it, for docs/ (tools/make_docs.sh).

    screenshot_html.py PAGE.html OUT.png [PANEL ROW COL]
    screenshot_html.py --notebook NOTEBOOK.html OUT.png PANELS PANEL ROW COL

Opens the page offline in headless Chromium (Selenium), hovers cell (ROW, COL) of panel PANEL
when given, so the picture shows the hover highlight and the info line, and saves the window.
With --notebook, PAGE is a notebook exported to HTML (nbconvert) whose drawings are pages in
iframes: the first drawing with PANELS panels is scrolled into view below the code cell that
made it, the cell hovered inside it, and one screen of the notebook saved.
Exits 77 when Selenium, Chromium or chromedriver is missing, 1 when the page or cell is not there.
"""
import os
import shutil
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
except ImportError:
    print("skip: python3-selenium is not installed")
    sys.exit(77)

browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
driver_bin = shutil.which("chromedriver")
if not browser or not driver_bin:
    print("skip: chromium or chromedriver is not installed")
    sys.exit(77)

notebook = len(sys.argv) > 1 and sys.argv[1] == "--notebook"
args = sys.argv[2:] if notebook else sys.argv[1:]
if len(args) < 2 or (notebook and len(args) != 6):
    print(__doc__, file=sys.stderr)
    sys.exit(1)
page, out = args[0], args[1]
if not os.path.exists(page):
    print(f"error: {page} does not exist", file=sys.stderr)
    sys.exit(1)
opts = webdriver.ChromeOptions()
opts.binary_location = browser
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900",
          "--hide-scrollbars"):
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
try:
    driver.get("file://" + os.path.abspath(page))
    if notebook:
        panels, p, r, c = (int(x) for x in args[2:6])
        frame = None
        for f in driver.find_elements(By.CSS_SELECTOR, "iframe"):
            driver.switch_to.default_content()
            driver.switch_to.frame(f)
            if driver.execute_script("return document.querySelectorAll('svg.panel').length") == panels:
                frame = f
                break
        driver.switch_to.default_content()
        if frame is None:
            print(f"error: no drawing with {panels} panels in {page}", file=sys.stderr)
            sys.exit(1)
        # The code cell that drew it stays on screen above the drawing; the window holds the
        # drawing's first 1100 pixels.
        driver.set_window_size(1100, 1300)
        driver.execute_script("arguments[0].scrollIntoView(); window.scrollBy(0, -150)", frame)
        driver.switch_to.frame(frame)
        el = driver.find_element(By.CSS_SELECTOR, 'g.cell[data-p="%d"][data-r="%d"][data-c="%d"] rect' % (p, r, c))
        ActionChains(driver).move_to_element(el).perform()
        driver.switch_to.default_content()
        if not driver.save_screenshot(out):
            sys.exit(1)
        sys.exit(0)
    if len(args) >= 5:
        p, r, c = (int(x) for x in args[2:5])
        el = driver.find_element(By.CSS_SELECTOR, 'g.cell[data-p="%d"][data-r="%d"][data-c="%d"]' % (p, r, c))
        ActionChains(driver).move_to_element(el).perform()
    # The window as large as the page (up to a limit), so the picture is the whole page.
    w = min(driver.execute_script("return document.documentElement.scrollWidth"), 1600)
    h = min(driver.execute_script("return document.documentElement.scrollHeight"), 1400)
    driver.set_window_size(max(w + 40, 600), max(h + 140, 400))
    if not driver.save_screenshot(out):
        sys.exit(1)
finally:
    driver.quit()
