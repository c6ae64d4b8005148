extension String {
    /// The text as a JSON string literal: in double quotes, with `"`, `\` and the control characters escaped.
    ///
    /// Every name or key the library shows quoted goes through it: property errors and descriptions, the
    /// environment loader's description, and the dependency graph's JSON.
    package var jsonStringLiteral: String {
        var output = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
