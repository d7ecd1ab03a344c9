"""What the --json tests (json_test.py, json_explain_diff_test.py) share: counted checks,
running tessera, and one --json document checked for its form (one line and a newline,
`command` and `schema_version` first), against docs/json.schema.json, and for its command.

    j = JsonCommandCheck(TESSERA, SCHEMA)
    d = j.run_json(["eval", "8:1"])      # plain dicts and lists
    j.check(d["results"] != [], "eval: a result")
    j.finish("json_test")               # prints the count, exits 1 on any failure
"""
import json
import subprocess
import sys

from json_schema_check import Members, Validator, loads, plain


class JsonCommandCheck:
    def __init__(self, tessera, schema):
        self.tessera = tessera
        self.validator = Validator(json.load(open(schema)))
        self.failures = []
        self.checks = 0

    def check(self, cond, what):
        self.checks += 1
        if not cond:
            self.failures.append(what)
            print("FAIL: " + what, file=sys.stderr)

    def run(self, args, stdin=b""):
        """(status, standard output as bytes, standard error as text)"""
        p = subprocess.run([self.tessera] + args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")

    def run_json(self, args, stdin=b"", status=0):
        """Runs `tessera ARGS --json`; checks the status, the document's form and schema; returns it as dicts."""
        rc, out, err = self.run(args + ["--json"], stdin)
        what = "tessera " + " ".join(args) + " --json"
        self.check(rc == status, "%s: status %d, expected %d (%s)" % (what, rc, status, err.strip()))
        text = out.decode("utf-8")  # raises on invalid UTF-8: a failure of the test
        self.check(text.endswith("\n") and text.count("\n") == 1, what + ": not one line and a newline")
        doc = loads(text)
        self.check(isinstance(doc, Members), what + ": not an object")
        self.check([k for k, _ in doc[:2]] == ["command", "schema_version"],
                   what + ": does not start with command, schema_version")
        errs = self.validator.errors(doc)
        self.check(not errs, what + ": schema: " + "; ".join(errs[:3]))
        d = plain(doc)
        self.check(d["command"] == args[0] and d["schema_version"] == 1, what + ": wrong command or version")
        return d

    def finish(self, name):
        print("%s: %d checks, %d failed" % (name, self.checks, len(self.failures)))
        sys.exit(1 if self.failures else 0)
