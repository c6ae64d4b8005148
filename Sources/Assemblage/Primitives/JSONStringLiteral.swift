extension String {
    /// The text as a JSON string literal: in double quotes, with `"`, `\` and the control characters escaped.
    ///
    /// Every name or key the library shows quoted goes through it: property errors and descriptions, the
    /// environment loader's description, and the dependency graph's JSON.
    package var jsonStringLiteral: String {
        let escapedText = escaped(["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]) { scalar in
            guard scalar.value < 0x20 else { return nil }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "\"" + escapedText + "\""
    }

    /// The text with each Unicode scalar that `escapes` lists replaced by its escape, each other scalar that
    /// `otherwise` has an escape for replaced by that, and the rest kept: the one loop of the library's escaping
    /// (JSON string literals, the dependency graph's DOT and Mermaid labels, the flame graph's XML).
    ///
    /// ```swift
    /// "a<b".escaped(["<": "&lt;"])   // a&lt;b
    /// ```
    func escaped(
        _ escapes: [Unicode.Scalar: String], otherwise: (Unicode.Scalar) -> String? = { _ in nil }
    ) -> String {
        var output = ""
        for scalar in unicodeScalars {
            if let escape = escapes[scalar] ?? otherwise(scalar) {
                output += escape
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
