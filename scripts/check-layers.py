#!/usr/bin/env python3
"""Checks that the Assemblage library's layers depend on each other one way only.

Each folder of Sources/Assemblage is a layer; LAYERS lists them bottom to top. A file may name the types declared
in its own layer and in the layers below it, never a type declared in a layer above (comments and string literals
are not read, so documentation may mention any type). The core reaches higher layers only through protocols and
hooks it declares itself.

Usage: scripts/check-layers.py [--list]   (--list prints each layer's files and declared types)
Exit status 1, with one line per use, when a lower layer names a higher layer's type.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "Assemblage"

# Bottom to top. Integrations (code behind the package traits) is the top: it may use everything.
LAYERS = [
    "Primitives",    # atomics, locks, epoch reclamation, append-only lists: no container types
    "Core",          # keys, registrations, the container, resolution, object scopes, request scopes, disposal
    "Hierarchy",     # parents' globals: the main and root containers, the ambient container, property wrappers
    "Properties",    # configuration properties: values, sources, loaders, decoding
    "Assembly",      # Swinject-style assemblies and the assembler
    "Modules",       # module trees: ModuleAssembly, ModuleAssembler, module scopes, contributions
    "Diagnostics",   # validation, explain, the dependency graph
    "Integrations",  # swift-configuration, swift-log, swift-service-lifecycle (package traits)
]

DECLARATION = re.compile(
    r"^\s*(?:@[\w().,: \"]+\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|indirect|"
    r"nonisolated|@usableFromInline|@frozen)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)",
    re.M)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def strip_comments_and_strings(source):
    """The code of a Swift file with comments and string literals blanked (line structure kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if source[i] == "\n" else "")
                    i += 1
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append("\n" * source.count("\n", i, j))
            i = j
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] != '"' and source[j] != "\n":
                if source[j] == "\\" and source.startswith("\\(", j):
                    # An interpolation is code: keep it.
                    depth, k = 1, j + 2
                    while k < n and depth:
                        depth += {"(": 1, ")": -1}.get(source[k], 0)
                        k += 1
                    out.append(" " + source[j + 2:k - 1] + " ")
                    j = k
                    continue
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def main():
    files = {}
    unknown = []
    for path in sorted(ROOT.rglob("*.swift")):
        layer = path.relative_to(ROOT).parts[0]
        if layer not in LAYERS:
            unknown.append(path)
            continue
        files[path] = (LAYERS.index(layer), strip_comments_and_strings(path.read_text()))
    if unknown:
        for path in unknown:
            print(f"{path.relative_to(ROOT.parent.parent)}: not in a layer folder ({', '.join(LAYERS)})")
        return 1

    owner = {}  # type name -> layer index
    for path, (level, code) in files.items():
        for name in DECLARATION.findall(code):
            owner[name] = min(level, owner.get(name, level))

    if "--list" in sys.argv:
        for level, layer in enumerate(LAYERS):
            names = sorted(n for n, l in owner.items() if l == level)
            print(f"{layer}: {len(names)} types: {', '.join(names)}")
        return 0

    violations = 0
    for path, (level, code) in files.items():
        for number, line in enumerate(code.split("\n"), start=1):
            for name in sorted(set(IDENTIFIER.findall(line))):
                used = owner.get(name)
                if used is not None and used > level:
                    violations += 1
                    print(f"{path.relative_to(ROOT.parent.parent)}:{number}: {LAYERS[level]} names {name}, "
                          f"declared in {LAYERS[used]} (a higher layer)")
    if violations:
        print(f"check-layers: {violations} uses of a higher layer's type; layers, bottom to top: "
              + " → ".join(LAYERS))
        return 1
    print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, every dependency points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
