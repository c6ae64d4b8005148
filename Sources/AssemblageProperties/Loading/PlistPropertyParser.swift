import Assemblage
import Foundation

/// Reads a property list with `PropertyListSerialization` and converts what it returns into ``PropertyValue``,
/// with key paths for errors (see ``PlistPropertyFormat``).
struct PlistPropertyParser {
    private let source: String
    private var path: [PropertyPathComponent] = []

    private init(source: String) {
        self.source = source
    }

    /// Parses `data` as a property list whose root is a dictionary.
    static func parse(_ data: Data, source: String) throws -> [String: PropertyValue] {
        let format = PlistPropertyFormat.name
        guard !data.isEmpty else {
            throw PropertyError(code: .malformedFile, source: source, format: format, message: "the file is empty")
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            if data.starts(with: Array("bplist".utf8)) {
                // After a binary failure the system parser retries the bytes as text and reports that attempt,
                // which would be misleading.
                throw PropertyError(
                    code: .malformedFile, source: source, format: format,
                    message: "the binary property list is invalid, truncated or too deeply nested",
                    underlyingError: error)
            }
            let (message, line) = parserMessage(error)
            throw PropertyError(
                code: .malformedFile, source: source, format: format,
                line: line, message: message, underlyingError: error)
        }
        guard let dictionary = root as? [String: Any] else {
            throw PropertyError(
                code: .rootNotDictionary, source: source, format: format,
                message: "expected a dictionary at the top level, found \(kindName(of: root))")
        }
        var parser = PlistPropertyParser(source: source)
        return try parser.convertDictionary(dictionary, depth: 1)
    }

    private static func kindName(of value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is Date: return "a date"
        case is Data: return "data"
        case is [String: Any]: return "a dictionary"
        case is NSNumber, is Bool, is Int, is Double: return "a number or bool"
        default: return "a value of type \(type(of: value))"
        }
    }

    /// Extracts the parser's own explanation and line number from a Foundation error, dropping the location
    /// suffix that `PropertyError` already renders.
    private static func parserMessage(_ error: any Error) -> (message: String, line: Int?) {
        let nsError = error as NSError
        var message = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        var line: Int?
        for marker in [", failing on line ", " on line ", " at line "] {
            guard let range = message.range(of: marker, options: .backwards) else { continue }
            let digits = message[range.upperBound...]
            if !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int(digits) {
                line = number
                message = String(message[..<range.lowerBound])
                break
            }
        }
        if let first = message.first, first.isUppercase,
            message.dropFirst().first.map({ !$0.isUppercase }) ?? true
        {
            message = first.lowercased() + message.dropFirst()
        }
        if message.isEmpty { message = "the data is not a valid property list" }
        return (message, line)
    }

    // MARK: Conversion

    private mutating func convertDictionary(_ dictionary: [String: Any], depth: Int) throws -> [String: PropertyValue] {
        try checkDepth(depth)
        var result: [String: PropertyValue] = [:]
        result.reserveCapacity(dictionary.count)
        // Sorted so that the first reported error does not depend on hashing.
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            path.append(.key(key))
            result[key] = try convert(value, depth: depth)
            path.removeLast()
        }
        return result
    }

    private mutating func convert(_ value: Any, depth: Int) throws -> PropertyValue {
        switch value {
        case let string as String:
            return .string(string)
        case let date as Date:
            return .date(date)
        case let data as Data:
            return .data(data)
        case let dictionary as [String: Any]:
            return .dictionary(try convertDictionary(dictionary, depth: depth + 1))
        case let array as [Any]:
            try checkDepth(depth + 1)
            var elements: [PropertyValue] = []
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                path.append(.index(index))
                elements.append(try convert(element, depth: depth + 1))
                path.removeLast()
            }
            return .array(elements)
        case let number as NSNumber:
            return try convertNumber(number)
        default:
            throw error(.invalidValue, "unsupported property-list value of type \(type(of: value))")
        }
    }

    private func checkDepth(_ depth: Int) throws {
        let maximum = JSONPropertyParser.maximumDepth
        if depth > maximum { throw error(.malformedFile, "nesting is deeper than the maximum of \(maximum) levels") }
    }

    private func convertNumber(_ number: NSNumber) throws -> PropertyValue {
        // Booleans and numbers are both NSNumber; the Objective-C type code tells them apart ("c"/"B" is how
        // CFBoolean and Swift Bool bridge on every platform; property lists contain no char-sized integers).
        switch String(cString: number.objCType) {
        case "c", "B":
            return .bool(number.boolValue)
        case "f", "d":
            let double = number.doubleValue
            guard double.isFinite else { throw error(.invalidValue, "infinity and NaN are not supported") }
            return .double(double)
        case "Q", "L", "I", "S", "C":
            guard let integer = Int(exactly: number.uint64Value) else {
                throw error(.invalidValue, "integer is out of range for Int")
            }
            return .integer(integer)
        default:
            guard let integer = Int(exactly: number.int64Value) else {
                throw error(.invalidValue, "integer is out of range for Int")
            }
            return .integer(integer)
        }
    }

    private func error(_ code: PropertyError.Code, _ message: String) -> PropertyError {
        PropertyError(
            code: code, source: source, format: PlistPropertyFormat.name,
            keyPath: PropertyPathComponent.format(path), message: message)
    }
}
