#!/usr/bin/env python3
"""A PNG of one of tessera's HTML pages as a browser shows it, for docs/ (tools/make_docs.sh).

    screenshot_html.py PAGE.html OUT.png [PANEL ROW COL]

Opens the page offline in headless Chromium (Selenium), hovers cell (ROW, COL) of panel PANEL
when given, so the picture shows the hover highlight and the info line, and saves the window.
Exits 77 when Selenium, Chromium or chromedriver is missing.
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

page, out = sys.argv[1], sys.argv[2]
opts = webdriver.ChromeOptions()
opts.binary_location = browser
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900",
          "--hide-scrollbars"):
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
try:
    driver.get("file://" + os.path.abspath(page))
    if len(sys.argv) >= 6:
        p, r, c = (int(x) for x in sys.argv[3:6])
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
