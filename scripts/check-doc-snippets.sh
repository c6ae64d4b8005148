#!/usr/bin/env bash
# Checks that every Swift code block in the DocC articles is compiled and run by `swift test`.
#
# In an article (Sources/*/*.docc/*.md), each ```swift block must be preceded by one of:
#   <!-- snippet: NAME -->          the block is a verbatim copy of the test code between
#                                   `// snippet: NAME` and `// end-snippet` in a file under
#                                   Tests/*/Documentation/ (compared after removing the marker's indentation)
#   <!-- not-compiled: REASON -->   code for another library (a migration guide's "before" side)
#
# Every `// snippet:` region in the tests must be used by an article, each name once.
# Runs in well under a second; needs python3. Exit status 1 when anything does not match.
#
#   scripts/check-doc-snippets.sh            check
#   scripts/check-doc-snippets.sh --update   copy each test region into its article block (edit the test, then
#                                            run this), then check
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "$@" <<'PY'
import glob, re, sys

update = "--update" in sys.argv[1:]
articles = sorted(glob.glob("Sources/*/*.docc/**/*.md", recursive=True))
test_files = sorted(glob.glob("Tests/*/Documentation/**/*.swift", recursive=True))
problems = []

# Regions in the tests.
regions = {}   # name -> (file, line, [lines])
for path in test_files:
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)// snippet: (\S+)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, name = m.group(1), m.group(2)
        start = i
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*// end-snippet\s*$", lines[i]):
            line = lines[i].rstrip()
            if line and not line.startswith(indent):
                problems.append(f"{path}:{i + 1}: line of snippet '{name}' is indented less than its marker")
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        if i == len(lines):
            problems.append(f"{path}:{start + 1}: snippet '{name}' has no '// end-snippet'")
        if name in regions:
            problems.append(f"{path}:{start + 1}: snippet '{name}' is also defined at "
                            f"{regions[name][0]}:{regions[name][1]}")
        regions[name] = (path, start + 1, body)
        i += 1

# Blocks in the articles.
used = {}
checked = 0
for path in articles:
    lines = open(path, encoding="utf-8").read().split("\n")
    if update:
        out, i = [], 0
        while i < len(lines):
            out.append(lines[i])
            if lines[i].strip() == "```swift":
                k = i - 1
                while k >= 0 and not lines[k].strip():
                    k -= 1
                m = re.match(r"^<!-- snippet: (\S+) -->$", lines[k].strip()) if k >= 0 else None
                j = i + 1
                while j < len(lines) and lines[j].strip() != "```":
                    j += 1
                if m and m.group(1) in regions:
                    out.extend(regions[m.group(1)][2])
                else:
                    out.extend(lines[i + 1:j])
                i = j
                continue
            i += 1
        if out != lines:
            open(path, "w", encoding="utf-8").write("\n".join(out))
            print(f"updated {path}")
        lines = out
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```swift":
            i += 1
            continue
        fence = i
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        block = [l.rstrip() for l in lines[fence + 1:j]]
        k = fence - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        tag = lines[k].strip() if k >= 0 else ""
        m = re.match(r"^<!-- snippet: (\S+) -->$", tag)
        if m:
            name = m.group(1)
            checked += 1
            if name in used:
                problems.append(f"{path}:{fence + 1}: snippet '{name}' is also used at {used[name]}")
            used[name] = f"{path}:{fence + 1}"
            if name not in regions:
                problems.append(f"{path}:{fence + 1}: no '// snippet: {name}' region under Tests/*/Documentation/")
            else:
                file, line, body = regions[name]
                if body != block:
                    first = next((n for n in range(max(len(body), len(block)))
                                  if n >= len(body) or n >= len(block) or body[n] != block[n]), 0)
                    want = body[first] if first < len(body) else "(end of test region)"
                    got = block[first] if first < len(block) else "(end of article block)"
                    problems.append(f"{path}:{fence + 2 + first}: snippet '{name}' differs from {file}:{line + 1 + first}\n"
                                    f"    test:    {want}\n    article: {got}")
        elif not re.match(r"^<!-- not-compiled: .+ -->$", tag):
            problems.append(f"{path}:{fence + 1}: swift block without '<!-- snippet: NAME -->' "
                            "or '<!-- not-compiled: REASON -->' before it")
        i = j + 1

for name, (file, line, _) in sorted(regions.items()):
    if name not in used:
        problems.append(f"{file}:{line}: snippet '{name}' is used by no article")

for problem in problems:
    print("error: " + problem)
print(f"{checked} snippets in {len(articles)} articles checked against {len(regions)} test regions"
      f" in {len(test_files)} files: " + ("OK" if not problems else f"{len(problems)} problem" + ("" if len(problems) == 1 else "s")))
sys.exit(1 if problems else 0)
PY
