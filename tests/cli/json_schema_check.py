"""A small JSON Schema validator for docs/json.schema.json (no packages beyond Python's).

It knows the keywords that schema uses: $ref (to #/$defs/...), oneOf, type, const, enum,
properties, required, additionalProperties: false, items, minItems, maxItems, minimum.
Like JSON Schema, "integer" excludes booleans and fractions ("number" takes both ints and
floats, never booleans). Beyond JSON Schema it checks what docs/json.md promises: members
appear in the order the schema lists them, and no key appears twice (parse documents with
`loads`, which keeps every key).
"""
import json


class Members(list):
    """An object as parsed: (key, value) pairs in document order, duplicates kept."""


def loads(text):
    return json.loads(text, object_pairs_hook=Members)


def plain(v):
    """The document with objects as dicts (after validation)."""
    if isinstance(v, Members):
        return {k: plain(x) for k, x in v}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def _type_ok(v, t):
    if t == "object":
        return isinstance(v, Members)
    if t == "array":
        return isinstance(v, list) and not isinstance(v, Members)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "null":
        return v is None
    raise ValueError("schema: unknown type " + t)


class Validator:
    KNOWN = {"$ref", "oneOf", "type", "const", "enum", "properties", "required", "additionalProperties",
             "items", "minItems", "maxItems", "minimum", "$schema", "title", "description", "$defs"}

    def __init__(self, schema):
        self.schema = schema

    def resolve(self, ref):
        if not ref.startswith("#/$defs/"):
            raise ValueError("schema: unsupported $ref " + ref)
        return self.schema["$defs"][ref[len("#/$defs/"):]]

    def errors(self, v, s=None, path="$"):
        """A list of messages, empty when v matches s (the whole schema by default)."""
        s = self.schema if s is None else s
        unknown = set(s) - self.KNOWN
        if unknown:
            raise ValueError("schema: unsupported keywords %s at %s" % (sorted(unknown), path))
        if "$ref" in s:
            return self.errors(v, self.resolve(s["$ref"]), path)
        if "oneOf" in s:
            matching = [alt for alt in s["oneOf"] if not self.errors(v, alt, path)]
            if len(matching) != 1:
                detail = "; ".join(m for alt in s["oneOf"] for m in self.errors(v, alt, path)[:1])
                return ["%s: matches %d of the oneOf alternatives, not 1 (%s)" % (path, len(matching), detail)]
            return []
        if "type" in s and not _type_ok(v, s["type"]):
            return ["%s: %r is not of type %s" % (path, v, s["type"])]
        if "const" in s and not (v == s["const"] and type(v) is type(s["const"])):
            return ["%s: %r is not %r" % (path, v, s["const"])]
        if "enum" in s and not any(v == e and type(v) is type(e) for e in s["enum"]):
            return ["%s: %r is not one of %r" % (path, v, s["enum"])]
        if "minimum" in s and v < s["minimum"]:
            return ["%s: %r is below %r" % (path, v, s["minimum"])]
        errs = []
        if isinstance(v, Members):
            keys = [k for k, _ in v]
            props = s.get("properties", {})
            if len(set(keys)) != len(keys):
                errs.append("%s: repeated keys in %r" % (path, keys))
            for k in s.get("required", []):
                if k not in keys:
                    errs.append("%s: missing member %r" % (path, k))
            if s.get("additionalProperties", True) is False:
                for k in keys:
                    if k not in props:
                        errs.append("%s: unexpected member %r" % (path, k))
            order = [k for k in props if k in keys]
            if [k for k in keys if k in props] != order:
                errs.append("%s: members in the order %r, not the schema's %r" % (path, keys, order))
            for k, x in v:
                if k in props:
                    errs += self.errors(x, props[k], path + "." + k)
        elif isinstance(v, list):
            if "minItems" in s and len(v) < s["minItems"]:
                errs.append("%s: %d items, fewer than %d" % (path, len(v), s["minItems"]))
            if "maxItems" in s and len(v) > s["maxItems"]:
                errs.append("%s: %d items, more than %d" % (path, len(v), s["maxItems"]))
            if "items" in s:
                for i, x in enumerate(v):
                    errs += self.errors(x, s["items"], "%s[%d]" % (path, i))
        return errs
