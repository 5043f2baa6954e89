#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (fuzz/corpus/config, fuzz/corpus/simulation) from the links
the project already has: every preset (as `preset=ID` and as its normalised query), the links
and queries of the README and docs/*.md, and the links in tests/*.cpp. Run once when those change
and commit the files (one link per file, named by its SHA-1 as libFuzzer names inputs):
    python3 fuzz/make_corpus.py [build/native/stepwise]
config gets every link, broken ones included (the tests' error cases are good parser seeds);
simulation gets those that `stepwise check` accepts. Keys come from fuzz/config.dict.
fuzz/corpus/expression gets the expressions of tests/test_expression.cpp (every string literal
written only in the expressions' alphabet with no word longer than a function's name, broken
ones included) and a few more: the limits' cases and characters that alphabet leaves out."""
import hashlib
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
cli = sys.argv[1] if len(sys.argv) > 1 else str(root / "build/native/stepwise")

# The dictionary's "key=" entries: what a link may start with.
key_prefixes = tuple(line.strip().strip('"') for line in (root / "fuzz/config.dict").read_text().splitlines()
                     if line.startswith('"') and line.rstrip().endswith('="'))


def looks_like_link(text):
    body = text[1:] if text[:1] in "?#" else text
    return body.startswith(key_prefixes) and "\n" not in body and len(body) <= 4096


def cpp_strings(source):
    """The C++ string literals of a source, adjacent ones ("a" "b") joined, simple escapes read."""
    literal = r'"((?:[^"\\\n]|\\.)*)"'
    for match in re.finditer(literal + r'(?:\s*' + literal + r')*', source):
        parts = re.findall(literal, match.group(0))
        text = "".join(parts)
        yield re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def candidates():
    listing = subprocess.run([cli, "list"], check=True, capture_output=True, text=True).stdout
    in_presets = False
    for line in listing.splitlines():
        if line.strip() == "presets:":
            in_presets = True
        elif in_presets and line.startswith("    "):
            preset = line.split()[0]
            yield f"preset={preset}"
            yield subprocess.run([cli, "check", f"preset={preset}"], check=True, capture_output=True,
                                 text=True).stdout.strip()
        else:
            in_presets = False
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for match in re.finditer(r"#([^\s`'\")]+)|'([^'\n]+)'|^(v=1&\S+)$", doc.read_text(), re.M):
            yield next(g for g in match.groups() if g)
    for test in sorted((root / "tests").glob("*.cpp")):
        for text in cpp_strings(test.read_text()):
            yield text
            yield from re.findall(r"'([^'\n]+)'", text)  # a query quoted inside a command line


# Letters, digits, spaces, tabs, the operators, parentheses and the comma, with no word longer
# than atan2: a literal of the tests written so is an expression (test names and messages hold
# ':', quotes or longer words; file names a '.hpp').
expression_alphabet = re.compile(r"[A-Za-z0-9_ \t.+\-*/^(),]*")
long_word = re.compile(r"[A-Za-z_]{6,}|\.hpp$")
expression_extras = ["x#y", "x+\u00e9", "-c1*x-c2*x^3 \n", "fx=-c1*x", "x\x00y", "2*x'", "-" * 25 + "x",
                     "(" * 24 + "x" + ")" * 24, "*".join(["x^16"] * 15), "+".join(["1e14"] * 17),
                     "10" + "+x" * 127, "100" + "+x" * 127]


def expressions():
    out = []
    for text in cpp_strings((root / "tests/test_expression.cpp").read_text()):
        if expression_alphabet.fullmatch(text) and not long_word.search(text) and text.strip() and text not in out:
            out.append(text)
    return out + [e for e in expression_extras if e not in out]


def write_expressions():
    directory = root / "fuzz/corpus/expression"
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    seeds = expressions()
    for text in seeds:
        data = text.encode()
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{len(seeds)} expressions in fuzz/corpus/expression")


def main():
    links = []
    for text in candidates():
        if looks_like_link(text) and text not in links:
            links.append(text)
    for name in ("config", "simulation"):
        directory = root / "fuzz/corpus" / name
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.iterdir():
            old.unlink()
    valid = 0
    for link in links:
        data = link.encode()
        name = hashlib.sha1(data).hexdigest()
        (root / "fuzz/corpus/config" / name).write_bytes(data)
        if subprocess.run([cli, "check", link], capture_output=True).returncode == 0:
            (root / "fuzz/corpus/simulation" / name).write_bytes(data)
            valid += 1
    print(f"{len(links)} links in fuzz/corpus/config, {valid} valid ones in fuzz/corpus/simulation")
    write_expressions()


main()
