"""What the browser tests share: skipping cleanly (exit 77, ctest's SKIP_RETURN_CODE) when
Selenium, Chromium or chromedriver is missing; drawing pages with the CLI; headless Chromium;
and the queries and gestures the tests assert with.

    import browser
    b = browser.Browser(sys.argv[1], sys.argv[2])   # TESSERA_CLI WORKDIR
    page = b.draw("x.html", "render", "(4,4):(1,4)")
    with b:  # starts Chromium; quits it and exits 1 on failed checks
        b.open(page)
        b.check(b.count("g.cell") == 16, "16 cells")
"""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("skip: python3-selenium is not installed")
    sys.exit(SKIP)

__all__ = ["Browser", "ActionChains", "By", "Keys"]


class Browser:
    def __init__(self, cli, work):
        self.browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        self.driver_bin = shutil.which("chromedriver")
        if not self.browser or not self.driver_bin:
            print("skip: chromium or chromedriver is not installed")
            sys.exit(SKIP)
        self.cli, self.work = cli, work
        os.makedirs(work, exist_ok=True)
        self.failures = []
        self.driver = None

    # ---- checks and pages
    def check(self, cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.failures.append(what)

    def draw(self, name, *args):
        """Runs `tessera ARGS -o WORKDIR/NAME` and returns the path (any exit status: diff exits 1
        when its operands differ; the page must exist)."""
        path = os.path.join(self.work, name)
        if os.path.exists(path):
            os.remove(path)
        subprocess.run([self.cli, *args, "-o", path], stdout=subprocess.DEVNULL)
        if not os.path.exists(path):
            raise SystemExit("tessera %s wrote no page" % " ".join(args))
        return path

    def run_cli(self, *args):
        return subprocess.run([self.cli, *args], capture_output=True, text=True)

    def check_self_contained(self, page):
        text = open(page, encoding="utf-8").read()
        refs = re.findall(r'(?:src|href)\s*=\s*["\']([^"\']+)', text)
        name = os.path.basename(page)
        self.check(not refs, name + ": no src/href references " + str(refs[:3]))
        self.check("http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text,
                   name + ": no URL besides the SVG namespace")

    # ---- the browser
    def __enter__(self):
        opts = webdriver.ChromeOptions()
        opts.binary_location = self.browser
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1600,1400"):
            opts.add_argument(a)
        self.driver = webdriver.Chrome(service=Service(self.driver_bin), options=opts)
        self.driver.set_page_load_timeout(60)
        return self

    def __exit__(self, kind, value, tb):
        self.driver.quit()
        if kind is not None:
            return False
        if self.failures:
            print("%d check(s) failed" % len(self.failures))
            sys.exit(1)
        print("all browser checks passed")
        return False

    def open(self, page):
        self.driver.get("file://" + os.path.abspath(page))

    def count(self, sel):
        return self.driver.execute_script("return document.querySelectorAll(arguments[0]).length", sel)

    def script(self, js, *args):
        return self.driver.execute_script(js, *args)

    def find(self, sel):
        return self.driver.find_element(By.CSS_SELECTOR, sel)

    def cell(self, p, r, c):
        return self.find('g.cell[data-p="%d"][data-r="%d"][data-c="%d"]' % (p, r, c))

    def text_of(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def view_box(self, el):
        return self.driver.execute_script("return arguments[0].getAttribute('viewBox')", el)

    def hover(self, el):
        # The pointer goes to the cell's rectangle: on a page whose diagram scrolls in its own
        # box (explain's long list of panels), a <g>'s centre computed by the driver can miss it.
        rects = el.find_elements(By.CSS_SELECTOR, "rect") if el.tag_name == "g" else []
        ActionChains(self.driver).move_to_element(rects[0] if rects else el).perform()

    def wheel_zoom_in(self, svg):
        self.driver.execute_script(
            "var s=arguments[0],r=s.getBoundingClientRect();"
            "s.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,clientX:r.left+r.width/2,clientY:r.top+r.height/2,"
            "bubbles:true,cancelable:true}));", svg)

    # ---- pages past the canvas threshold (html_backend.cpp: a canvas per panel; the page's
    # window.tesseraCells answers what the element form keeps in attributes)
    def wait_cells(self, timeout=30):
        """Waits until a canvas page has decoded its cell data; True when it did."""
        import time
        end = time.time() + timeout
        while time.time() < end:
            st = self.script("return window.tesseraCells?[tesseraCells.ready,tesseraCells.error]:null")
            if st and st[1]:
                print("page error: " + st[1])
                return False
            if st and st[0]:
                return True
            time.sleep(0.05)
        return False

    def hover_cell(self, p, r, c):
        """A synthetic mousemove over cell (p,r,c) of a canvas page: the milliseconds
        (performance.now()) from the event until the highlight and the info line are updated
        and the next frame is painted."""
        return self.driver.execute_async_script(
            "var done=arguments[arguments.length-1],pt=tesseraCells.center(arguments[0],arguments[1],arguments[2]);"
            "var el=document.elementFromPoint(pt.x,pt.y),t=performance.now();"
            "el.dispatchEvent(new MouseEvent('mousemove',{clientX:pt.x,clientY:pt.y,bubbles:true}));"
            "requestAnimationFrame(function(){setTimeout(function(){done(performance.now()-t);},0);});", p, r, c)

    def click_cell(self, p, r, c, shift=False):
        self.script("var pt=tesseraCells.center(arguments[0],arguments[1],arguments[2]),el=document.elementFromPoint(pt.x,pt.y);"
                    "el.dispatchEvent(new MouseEvent('click',{clientX:pt.x,clientY:pt.y,shiftKey:arguments[3],bubbles:true}));",
                    p, r, c, shift)

    def outlined(self):
        """The cells the last hover outlined, 'p:r,c': {'thread': [...], 'pair': [...]}."""
        return self.script("return tesseraCells.outlined")

    def page_cell(self, p, r, c):
        """{kind, t, v, w, o, b, x, tooltip} of a canvas page's cell (strings; None where absent)."""
        return self.script("return tesseraCells.cell(arguments[0],arguments[1],arguments[2])", p, r, c)

    def panel_cells(self, p):
        """Every cell of panel p of a canvas page as 't|v|o' (empty where absent), row-major."""
        return self.script(
            "var fo=document.querySelector('foreignObject.cells[data-p=\"'+arguments[0]+'\"]'),R=+fo.dataset.rows,C=+fo.dataset.cols,out=[];"
            "for(var r=0;r<R;r++)for(var c=0;c<C;c++){var x=tesseraCells.cell(arguments[0],r,c);"
            "out.push([x.t,x.v,x.o].map(function(v){return v===null?'':v;}).join('|'));}return out;", p)

    def panel_titles(self):
        """Each svg.panel's first text line (its title), in order."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('svg.panel')).map(function(s){"
            "var t=s.querySelector('text');return t?t.textContent:'';})")
