#!/usr/bin/env python3
"""Checks the golden answers (testdata/answers) against the reference
platform's published OpenAPI document (v10): each answer's body against the
schema of its operation's response for its status.

    scripts/schema-check.py path/to/openapi.json

Needs Python 3 with the jsonschema package. Prints each refused answer with
where and why, the operations the document does not have, and the count of
accepted answers. Not part of CI: the document is not in this repository.
"""
import glob
import json
import os
import re
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
spec = json.load(open(sys.argv[1]))
registry = Registry().with_resource("urn:spec", Resource.from_contents(spec, default_specification=DRAFT202012))

ops = {}
for line in open(os.path.join(root, "testdata", "operations.txt")):
    if line.startswith("#") or not line.strip():
        continue
    name, method, route = line.rstrip("\n").split("\t")
    ops[name] = (method, route)
# The answers recorded beside the interface's operations.
for extra in ("Execute Webhook with components", "Execute Webhook creating a forum thread", "Execute Webhook with a file component"):
    ops[extra] = ops["Execute Webhook"]
ops["Get Current User"] = ("GET", "/users/@me")
ops["List Current User Guilds"] = ("GET", "/users/@me/guilds")


def operation(method, route):
    path = re.sub(r"\{(\w+)\.(\w+)\}", r"{\1_\2}", route)
    segs = path.strip("/").split("/")
    for k, v in spec["paths"].items():
        ks = k.strip("/").split("/")
        if len(ks) == len(segs) and all(a == b or (a.startswith("{") and b.startswith("{")) for a, b in zip(ks, segs)):
            if method.lower() in v:
                return v[method.lower()]
    return None


def absolute(x):
    if isinstance(x, dict):
        return {k: ("urn:spec" + v if k == "$ref" and v.startswith("#") else absolute(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [absolute(i) for i in x]
    return x


accepted = judged = 0
files = sorted(glob.glob(os.path.join(root, "testdata", "answers", "*.json")))
for f in files:
    a = json.load(open(f))
    op = a["operation"]
    o = operation(*ops[op])
    if o is None:
        print("--", op, ": not in the document")
        continue
    judged += 1
    r = o["responses"].get(str(a["status"]))
    if r is None:
        print("XX", op, ": status", a["status"], "is not one of", list(o["responses"]))
        continue
    content = (r.get("content") or {}).get("application/json")
    if content is None:
        accepted += 1
        continue
    errors = list(Draft202012Validator(absolute(content["schema"]), registry=registry).iter_errors(a.get("body")))
    if not errors:
        accepted += 1
        continue
    print("XX", op)
    for e in errors[:5]:
        while e.context:
            e = max(e.context, key=lambda c: len(list(c.absolute_path)))
        print("    ", "/".join(map(str, e.absolute_path)) + ":", e.message[:200])
print(f"accepted {accepted} of {judged} answers the document can judge ({len(files)} answers)")
