#!/usr/bin/env python3
"""Checks that the Assemblage library's layers depend on each other only as declared.

Each layer is one or more folders of Sources/Assemblage; LAYERS says which, and which other layers each may use
(a directed acyclic graph, not a total order: nothing has to sit above everything it does not use). A file may
name what its own layer and the layers it uses declare: types (nested ones too), and the members and functions
declared in extensions and at file level (so that `uniqued(by:)` from Diagnostics is seen in Resolution).
Comments and string literals are not read, so documentation may mention anything. A name declared in several
layers is allowed when one of them is visible. Private and fileprivate declarations are not names of a layer.

It also keeps the library's unsafe code in one room: the constructs that skip a check Swift would otherwise make
(UNSAFE below: unowned references, raw pointers, unchecked casts and exclusivity, the C shim) appear only in the
files of UNSAFE_ROOM, so that a reviewer who owns that folder sees every change to them. The `@unchecked Sendable`
conformances are not speed constructs; they are counted in Contributing/UnsafeCodeLedger.md instead.

Usage: scripts/check-layers.py [--list] [--graph]
  --list   prints each layer's folders and the names it declares
  --graph  prints, for each layer, the layers its files actually use (to compare with LAYERS)
Exit status 1, with one line per use, when a file names what a layer it may not use declares.
"""
import pathlib
import re
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "Assemblage"
# The package's other libraries (AssemblageProperties, AssemblageScenes, AssemblageTesting) are targets of their
# own: the compiler keeps them to Assemblage's public and `package` API, and Assemblage cannot import them.

# Layer: (folders, layers it may use). The core is one layer of several concept folders whose files use each
# other freely; everything above it uses it.
LAYERS = {
    "Primitives":   (["Primitives"], []),   # atomics, locks, reclamation, append-only lists: no container types
    "Core":         (["Errors", "Container", "Registration", "Resolution", "Lifetimes", "Concurrency", "Generated",
                      "Unsafe"],
                     ["Primitives"]),       # keys, registrations, the container, resolution, lifetimes, disposal
    "Globals":      (["Globals"], ["Core", "Primitives"]),          # the main and root containers, the ambient one
    "PropertyWrappers": (["PropertyWrappers"], ["Globals", "Core", "Primitives"]),  # @Injected and its kin
    "Assembly":     (["Assembly"], ["Core", "Primitives"]),                # Swinject-style assemblies, the assembler
    "Modules":      (["Modules"], ["Assembly", "Core", "Primitives"]),     # module trees, module containers
    "Diagnostics":  (["Diagnostics"], ["Modules", "Assembly", "Core", "Primitives"]),  # validation, explain, graph
    "Profiling":    (["Profiling"], ["Core", "Primitives"]),          # the startup profile: recording, renderings
    "Integrations": (["Integrations"], ["Diagnostics", "Modules", "Assembly", "Globals", "Core",
                                        "Primitives"]),      # swift-log, swift-service-lifecycle
    "Compatibility": (["Compatibility"], ["Diagnostics", "Modules", "Assembly", "PropertyWrappers",
                                          "Globals", "Core", "Primitives"]),  # other libraries' spellings
}
# The folder that holds every unsafe construct of the library (the lock-free machinery and its small API), and
# the constructs: a word (or attribute) that names one, in code outside comments and string literals.
UNSAFE_ROOM = "Unsafe"
UNSAFE = re.compile(
    r"\bUnmanaged\b|\b_withUnsafeGuaranteedRef\b|@exclusivity\(unchecked\)|\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b"
    r"|\bwithUnsafe\w*|\bunsafeBitCast\b|\bunsafeDowncast\b|\bunsafelyUnwrapped\b|nonisolated\(unsafe\)"
    r"|\bimport\s+_AssemblageShims\b|\b_asm_\w+|\bassumingAlive\b|\bOpaquePointer\b")
FOLDER_LAYER = {folder: layer for layer, (folders, _) in LAYERS.items() for folder in folders}

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


MEMBER = re.compile(
    r"^\s*(?:@[\w().,: \"]+\s+)*((?:(?:public|internal|private|fileprivate|package|open|final|static|class|override|"
    r"mutating|nonmutating|nonisolated|isolated|dynamic|lazy|weak|unowned|@usableFromInline|@inlinable|@inline\(\w+\)|"
    r"@discardableResult|@_disfavoredOverload|@exclusivity\(\w+\))\s+)*)(?:func|var|let)\s+([A-Za-z_]\w*)", re.M)
LABEL = re.compile(r"[(,]\s*(?:_\s+)?([A-Za-z_]\w*)\s*:")
CASE = re.compile(r"^\s*(?:indirect\s+)?case\s+((?:[A-Za-z_]\w*(?:\([^)]*\))?(?:\s*=\s*[^,]+)?\s*,?\s*)+)$")
# Members of Foundation and Dispatch (which have no interface to read on Linux) that the library uses.
FOUNDATION_NAMES = {"main"}
USE = re.compile(r"(?:\.|\b)([A-Za-z_]\w*)\s*(?=\()|\.([A-Za-z_]\w*)")


def declared_names(code):
    """Types, and the functions and properties declared at file level or as members of a type or an extension
    (not private ones, and not the locals of a function body)."""
    names = set(DECLARATION.findall(code))
    depth, bodies = 0, []  # bodies: the depths at which a type's or an extension's body opened
    for line in code.split("\n"):
        stripped = line.strip()
        if depth == 0 or (bodies and bodies[-1] == depth - 1):
            m = MEMBER.match(line)
            if m and not re.search(r"\b(private|fileprivate)\b", m.group(1) or ""):
                names.add(m.group(2))
                # Its parameters' and tuple elements' labels (`[(entry: …, order: Int)]`) are read as members.
                names |= set(LABEL.findall(line))
            case = CASE.match(line)
            if case:
                names |= set(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", case.group(1)))
        opens_body = re.search(r"\b(extension|class|struct|enum|protocol|actor)\s+[A-Za-z_]", stripped) and \
            not re.search(r"\b(func|var|let)\b", stripped.split("{")[0])
        for ch in line:
            if ch == "{":
                if opens_body and (depth == 0 or (bodies and bodies[-1] == depth - 1)):
                    bodies.append(depth)
                    opens_body = False
                depth += 1
            elif ch == "}":
                depth -= 1
                if bodies and depth == bodies[-1]:
                    bodies.pop()
    return names


def standard_library_names():
    """Every identifier the toolchain's Swift and _Concurrency interfaces declare or use: a member named like one
    of them (`isEmpty`, `value`) cannot be told from the standard library's by name, so it is not checked."""
    swiftc = shutil.which("swiftc")
    names = set()
    if swiftc:
        lib = pathlib.Path(swiftc).resolve().parent.parent / "lib" / "swift"
        for module in ("Swift", "_Concurrency", "Synchronization", "Dispatch"):
            for interface in lib.glob(f"*/{module}.swiftmodule/*.swiftinterface"):
                names |= set(IDENTIFIER.findall(interface.read_text(errors="replace")))
    return names


def main():
    files = {}
    unknown = []
    for path in sorted(ROOT.rglob("*.swift")):
        folder = path.relative_to(ROOT).parts[0]
        if folder not in FOLDER_LAYER:
            unknown.append(path)
            continue
        files[path] = (FOLDER_LAYER[folder], strip_comments_and_strings(path.read_text()))
    if unknown:
        for path in unknown:
            print(f"{path.relative_to(ROOT.parent.parent)}: not in a layer's folder ({', '.join(FOLDER_LAYER)})")
        return 1

    owners = {}  # name -> the layers that declare it
    types = set()
    for path, (layer, code) in files.items():
        types |= set(DECLARATION.findall(code))
        for name in declared_names(code):
            owners.setdefault(name, set()).add(layer)
    # Members and functions are checked where they are used as such (`.name` or `name(`), and only when no type
    # is so named and the standard library has no identifier so spelled.
    common = standard_library_names() | FOUNDATION_NAMES
    members = {name for name in owners if name not in types}
    for name in members & common:
        del owners[name]

    if "--list" in sys.argv:
        for layer, (folders, _) in LAYERS.items():
            names = sorted(n for n, ls in owners.items() if layer in ls)
            print(f"{layer} ({', '.join(folders)}): {len(names)} names: {', '.join(names)}")
        return 0

    used = {layer: set() for layer in LAYERS}
    violations = 0
    for path, (layer, code) in files.items():
        visible = {layer, *LAYERS[layer][1]}
        own_private = {m.group(2) for m in MEMBER.finditer(code) if re.search(r"\b(private|fileprivate)\b", m.group(1))}
        for number, line in enumerate(code.split("\n"), start=1):
            names = set(IDENTIFIER.findall(line))
            member_uses = {a or b for a, b in USE.findall(line)}
            names = {n for n in names if n not in members or n in member_uses}
            for name in sorted(names):
                declaring = owners.get(name)
                if not declaring:
                    continue
                if name in own_private:
                    continue
                used[layer] |= declaring - {layer} if len(declaring) == 1 else set()
                if declaring & visible:
                    continue
                violations += 1
                print(f"{path.relative_to(ROOT.parent.parent)}:{number}: {layer} names {name}, declared in "
                      f"{', '.join(sorted(declaring))}, which {layer} may not use")
    for path, (layer, code) in files.items():
        if path.relative_to(ROOT).parts[0] == UNSAFE_ROOM:
            continue
        for number, line in enumerate(code.split("\n"), start=1):
            found = UNSAFE.search(line)
            if found:
                violations += 1
                print(f"{path.relative_to(ROOT.parent.parent)}:{number}: {found.group(0)} outside {UNSAFE_ROOM}/, the "
                      f"one folder for unsafe code (use its API: _Unowned, the typed words, _Shim)")
    if "--graph" in sys.argv:
        for layer in LAYERS:
            print(f"{layer} uses: {', '.join(sorted(used[layer])) or 'nothing'}")
    if violations:
        print(f"check-layers: {violations} uses of a layer that the user's layer may not use (see LAYERS), or of "
              f"unsafe code outside {UNSAFE_ROOM}/")
        return 1
    print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, every dependency as declared, unsafe code only "
          f"in {UNSAFE_ROOM}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
