"""Validates JSON documents against a JSON Schema; prints one line per problem.

Usage: validate_json.py SCHEMA DOCUMENT...   (a DOCUMENT ending in .md: its ```json block of
a report, the one with a "summary")
"""
import json
import re
import sys

import jsonschema


def load(path):
    with open(path) as file:
        text = file.read()
    if path.endswith(".md"):
        blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", text, re.S)]
        return next(block for block in blocks if "summary" in block)
    return json.loads(text)


schema = load(sys.argv[1])
validator = jsonschema.Draft202012Validator(schema)
validator.check_schema(schema)
problems = [f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}"
            for path in sys.argv[2:] for error in validator.iter_errors(load(path))]
print("\n".join(problems))
sys.exit(1 if problems else 0)
