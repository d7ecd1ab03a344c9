"""ctest's entry to the tour notebook's test: executes examples/notebooks/tour.ipynb with
`jupyter nbconvert --to notebook --execute` (the built package first on the kernel's path),
then checks that every cell ran without error and that the outputs hold the drawings:
image/svg+xml and text/html (the interactive page) mime data, one of each per drawing cell.
Also exports the executed notebook as HTML (tour.html beside it) for the browser test.
Exits 77 (ctest's SKIP_RETURN_CODE) only when nbconvert or the IPython kernel is missing.

usage: run_notebook.py PACKAGE_DIR NOTEBOOK OUT_DIR"""
import json
import os
import subprocess
import sys

SKIP = 77


def main():
    package_dir, notebook, out_dir = sys.argv[1:4]
    try:
        import ipykernel  # noqa: F401
        import nbconvert  # noqa: F401
    except ImportError as e:
        print(f"skipped: {e.name} is not installed for {sys.executable} "
              "(apt-get install jupyter-nbconvert python3-ipykernel)")
        return SKIP
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.abspath(package_dir) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    # The kernel runs this interpreter, the one the module was built for (the system's python3
    # kernel may be another).
    kernels = os.path.join(out_dir, "jupyter")
    spec = os.path.join(kernels, "kernels", "tessera-python")
    os.makedirs(spec, exist_ok=True)
    with open(os.path.join(spec, "kernel.json"), "w", encoding="utf-8") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "Python 3 (tessera's)", "language": "python"}, f)
    env["JUPYTER_PATH"] = kernels + os.pathsep + env.get("JUPYTER_PATH", "")
    executed = os.path.join(out_dir, "tour.ipynb")
    run = [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=60",
           "--ExecutePreprocessor.kernel_name=tessera-python", "--output-dir", out_dir, "--output", "tour.ipynb",
           notebook]
    r = subprocess.run(run, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr, sep="\n")
        print("FAIL: the notebook did not run through")
        return 1
    with open(executed, encoding="utf-8") as f:
        nb = json.load(f)
    failures = []
    drawings = 0
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        outputs = cell.get("outputs", [])
        errors = [o for o in outputs if o["output_type"] == "error"]
        # A cell tagged raises-exception shows one of tessera's errors as the exception it is.
        if "raises-exception" in cell.get("metadata", {}).get("tags", []):
            if not any(o["ename"] in ("InadmissibleError", "ParseError") for o in errors):
                failures.append(f"cell {i} is tagged raises-exception, but raised no tessera error")
            continue
        for o in errors:
            failures.append(f"cell {i} raised {o['ename']}: {o['evalue']}")
        # A cell whose last line is a drawable object shows it: SVG and the interactive page.
        if "# draws" in source:
            drawings += 1
            data = {k: v for o in outputs if o["output_type"] == "execute_result" for k, v in o["data"].items()}
            svg = "".join(data.get("image/svg+xml", ""))
            page = "".join(data.get("text/html", ""))
            if "<svg" not in svg:
                failures.append(f"cell {i} ({source.splitlines()[0]}): no image/svg+xml output")
            if "<iframe" not in page or "&lt;svg" not in page:
                failures.append(f"cell {i} ({source.splitlines()[0]}): no text/html interactive page")
    if not any("raises-exception" in c.get("metadata", {}).get("tags", []) for c in nb["cells"]):
        failures.append("no cell shows an error (a cell tagged raises-exception)")
    if drawings < 6:
        failures.append(f"only {drawings} drawing cells (marked '# draws'); the tour draws at least 6")
    export = [sys.executable, "-m", "nbconvert", "--to", "html", "--output-dir", out_dir, "--output", "tour.html",
              executed]
    r = subprocess.run(export, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("the HTML export failed: " + r.stderr[-2000:])
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"tour notebook: {drawings} drawings with SVG and HTML outputs, exported to {out_dir}/tour.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
