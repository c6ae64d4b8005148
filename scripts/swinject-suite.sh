#!/usr/bin/env bash
# Runs Swinject 2.10.0's own test suite (Tests/SwinjectTests of the Swinject package) against Assemblage, with
# only the import changed. The test files come from the Swinject checkout that SwiftPM resolves for
# Benchmarks/Package.swift (pinned to exactly 2.10.0); they are copied into Compat/SwinjectSuite at run time and
# never committed. Every file of the suite is used; none is excluded or edited beyond the import line.
# Extra arguments go to `swift test` (e.g. `--filter SynchronizedResolverTests`).
set -euo pipefail
cd "$(dirname "$0")/.."

swift package --package-path Benchmarks resolve >/dev/null
source_dir=Benchmarks/.build/checkouts/Swinject/Tests/SwinjectTests
version=$(git -C Benchmarks/.build/checkouts/Swinject describe --tags --exact-match 2>/dev/null || echo unknown)
if [ "$version" != "2.10.0" ]; then
    echo "swinject-suite: expected Swinject 2.10.0 in $source_dir, found '$version'" >&2
    exit 1
fi

target_dir=Compat/SwinjectSuite/Tests/SwinjectTests
rm -rf "$target_dir"
mkdir -p "$target_dir"
count=0
for file in "$source_dir"/*.swift; do
    sed -e 's/^@testable import Swinject$/@testable import Assemblage/' \
        -e 's/^import Swinject$/import Assemblage/' "$file" > "$target_dir/$(basename "$file")"
    count=$((count + 1))
done
cp Compat/SwinjectSuite/Support/*.swift "$target_dir/"
echo "swinject-suite: $count files of Swinject $version's Tests/SwinjectTests, import changed to Assemblage"

# SwiftPM may keep a build plan that misses files added to Assemblage since the last run; plan afresh.
rm -f Compat/SwinjectSuite/.build/debug.yaml
swift test --package-path Compat/SwinjectSuite "$@"
