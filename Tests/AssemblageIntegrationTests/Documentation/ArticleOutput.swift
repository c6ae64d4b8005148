#if Configuration
// Article code prints what a reader would see (`print(error)`, `print(report)`). A passing `swift test` should
// print nothing but its results, so in this test target `print` is the function below, which shadows the
// standard library's: it renders its items as `print` would (so every description still runs) and drops the
// text. The tests check that text through the values' descriptions; `Swift.print` still writes, for debugging.

/// Renders `items` as the standard library's `print` would, and drops the text (see the comment above).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    _ = items.map { String(describing: $0) }.joined(separator: separator) + terminator
}
#endif
