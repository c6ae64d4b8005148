import Foundation

// MARK: - JSON

/// A loader that reads a JSON file whose root is an object.
///
/// The parser is strict JSON (RFC 8259) with these deliberate differences:
/// - `//` line comments and `/* */` block comments are allowed wherever
///   whitespace is. Comment markers inside strings, as in
///   `"http://example.com"`, are ordinary text.
/// - A leading UTF-8 byte-order mark is ignored. UTF-16 and UTF-32 files are
///   rejected, as is any invalid UTF-8.
/// - `null` is rejected (``PropertyError/Code/invalidValue``): properties
///   have no null; remove the key instead.
/// - A key repeated within one object is rejected
///   (``PropertyError/Code/duplicateKey``).
/// - Numbers overflowing `Double`, such as `1e400`, are rejected
///   (``PropertyError/Code/invalidValue``) rather than read as infinity.
/// - Arrays and objects may nest at most 64 levels deep (the root object
///   counts as one). The parser does not recurse, so even 10,000 levels of
///   hostile input fail cleanly; the limit keeps later recursive work on the
///   values (equality, decoding) cheap on small thread stacks.
///
/// Numbers without a fraction or exponent load as
/// ``PropertyValue/integer(_:)`` when they fit in `Int`, all others as
/// ``PropertyValue/double(_:)``; both read as `Int` and `Double` where the
/// conversion is exact. Syntax errors report the line, the column (counted
/// in Unicode scalars) and the key path.
///
/// ```swift
/// // settings.json
/// // {
/// //     // Where the API lives.
/// //     "baseURL": "https://api.example.com/v1",
/// //     "timeout": 2.5,
/// //     "retries": 3
/// // }
/// let loader = JSONPropertyLoader(bundle: .main, name: "settings")
/// let properties = try Properties(loader: loader)
/// properties.property("retries", as: Int.self) // 3
/// ```
public struct JSONPropertyLoader: PropertyLoader {
    private let location: PropertyFileLocation

    /// Creates a loader for the JSON file at `url`.
    ///
    /// Nothing is read until ``load()``. Only `file:` URLs are supported.
    ///
    /// ```swift
    /// let loader = JSONPropertyLoader(url: URL(fileURLWithPath: "/etc/myapp/settings.json"))
    /// ```
    ///
    /// - Parameter url: The location of the file.
    public init(url: URL) {
        location = .url(url)
    }

    /// Creates a loader for the resource `<name>.json` in `bundle`.
    ///
    /// The resource is looked up now; if it does not exist, ``load()`` throws
    /// ``PropertyError/Code/missingFile`` naming the resource and the bundle.
    /// `name` may include the `.json` extension. In a Swift package, pass
    /// `Bundle.module` to read a target's resources (this works on Linux
    /// too); with `.copy("Directory")` resources, pass the directory as
    /// `subdirectory`.
    ///
    /// ```swift
    /// let loader = JSONPropertyLoader(bundle: .module, name: "defaults", subdirectory: "Config")
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: The bundle containing the resource.
    ///   - name: The resource name, with or without `.json`.
    ///   - subdirectory: The resource's directory inside the bundle, if any.
    public init(bundle: Bundle = .main, name: String, subdirectory: String? = nil) {
        location = .resource(in: bundle, name: name, fileExtension: "json", subdirectory: subdirectory)
    }

    /// Creates a loader that parses JSON bytes already in memory.
    ///
    /// Use it for configuration embedded in code or fetched elsewhere.
    ///
    /// ```swift
    /// let loader = JSONPropertyLoader(data: Data(#"{"port": 8080}"#.utf8),
    ///                                 description: "embedded defaults")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The UTF-8 encoded JSON text.
    ///   - description: A name for the source, shown in error messages.
    public init(data: Data, description: String) {
        location = .data(data, description: description)
    }

    /// The file URL this loader reads, or `nil` for in-memory data and for
    /// bundle resources that were not found.
    ///
    /// Useful to log which file was picked up; the bundle lookup happens when
    /// the loader is created.
    ///
    /// ```swift
    /// JSONPropertyLoader(bundle: .main, name: "settings").url // …/settings.json
    /// ```
    public var url: URL? {
        if case .url(let url) = location { return url }
        return nil
    }

    /// The file path, the missing resource and its bundle, or the in-memory
    /// description.
    ///
    /// Every ``PropertyError`` thrown by ``load()`` uses this as its
    /// ``PropertyError/source``.
    ///
    /// ```swift
    /// JSONPropertyLoader(url: URL(fileURLWithPath: "/a/b.json")).sourceDescription // "/a/b.json"
    /// ```
    public var sourceDescription: String { location.sourceDescription }

    /// Reads and parses the file.
    ///
    /// ```swift
    /// let values = try JSONPropertyLoader(url: url).load()
    /// ```
    ///
    /// - Returns: The root object's keys and values.
    /// - Throws: ``PropertyError`` with code ``PropertyError/Code/missingFile``,
    ///   ``PropertyError/Code/unreadableFile``,
    ///   ``PropertyError/Code/malformedFile`` (with line and column),
    ///   ``PropertyError/Code/rootNotDictionary``,
    ///   ``PropertyError/Code/invalidValue`` or
    ///   ``PropertyError/Code/duplicateKey``.
    public func load() throws -> [String: PropertyValue] {
        let data = try location.read(format: "JSON")
        return try JSONPropertyParser.parse(data, source: sourceDescription)
    }
}

// MARK: - Property list

/// A loader that reads a property list whose root is a dictionary.
///
/// Any format `PropertyListSerialization` understands is accepted: XML,
/// binary and OpenStep. Property-list dates and data load as
/// ``PropertyValue/date(_:)`` and ``PropertyValue/data(_:)``; `<integer>` as
/// ``PropertyValue/integer(_:)``; `<real>` as ``PropertyValue/double(_:)``;
/// `<true/>`/`<false/>` as ``PropertyValue/bool(_:)``.
///
/// Non-finite reals (`inf`, `nan`) and integers beyond `Int` are rejected
/// with ``PropertyError/Code/invalidValue``. Nesting deeper than 64 levels
/// is rejected, as for JSON. Unlike ``JSONPropertyLoader``, duplicate keys cannot be
/// detected: the system parser keeps the last occurrence. Syntax errors
/// carry the line number when the system parser reports one, but no column.
///
/// ```swift
/// let loader = PlistPropertyLoader(bundle: .main, name: "Settings")
/// let properties = try Properties(loader: loader)
/// let launch = properties.property("launchDate", as: Date.self)
/// ```
public struct PlistPropertyLoader: PropertyLoader {
    private let location: PropertyFileLocation

    /// Creates a loader for the property list at `url`.
    ///
    /// Nothing is read until ``load()``. Only `file:` URLs are supported.
    ///
    /// ```swift
    /// let loader = PlistPropertyLoader(url: URL(fileURLWithPath: "/etc/myapp/Settings.plist"))
    /// ```
    ///
    /// - Parameter url: The location of the file.
    public init(url: URL) {
        location = .url(url)
    }

    /// Creates a loader for the resource `<name>.plist` in `bundle`.
    ///
    /// The resource is looked up now; if it does not exist, ``load()`` throws
    /// ``PropertyError/Code/missingFile``. `name` may include the `.plist`
    /// extension.
    ///
    /// ```swift
    /// let loader = PlistPropertyLoader(bundle: .module, name: "Settings")
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: The bundle containing the resource.
    ///   - name: The resource name, with or without `.plist`.
    ///   - subdirectory: The resource's directory inside the bundle, if any.
    public init(bundle: Bundle = .main, name: String, subdirectory: String? = nil) {
        location = .resource(in: bundle, name: name, fileExtension: "plist", subdirectory: subdirectory)
    }

    /// Creates a loader that parses property-list bytes already in memory.
    ///
    /// ```swift
    /// let bytes = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
    /// let loader = PlistPropertyLoader(data: bytes, description: "generated")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The encoded property list.
    ///   - description: A name for the source, shown in error messages.
    public init(data: Data, description: String) {
        location = .data(data, description: description)
    }

    /// The file URL this loader reads, or `nil` for in-memory data and for
    /// bundle resources that were not found.
    ///
    /// Useful to log which file was picked up; the bundle lookup happens when
    /// the loader is created.
    ///
    /// ```swift
    /// PlistPropertyLoader(bundle: .main, name: "Settings").url // …/Settings.plist
    /// ```
    public var url: URL? {
        if case .url(let url) = location { return url }
        return nil
    }

    /// The file path, the missing resource and its bundle, or the in-memory
    /// description.
    ///
    /// Every ``PropertyError`` thrown by ``load()`` uses this as its
    /// ``PropertyError/source``.
    ///
    /// ```swift
    /// PlistPropertyLoader(url: URL(fileURLWithPath: "/a/b.plist")).sourceDescription // "/a/b.plist"
    /// ```
    public var sourceDescription: String { location.sourceDescription }

    /// Reads and parses the property list.
    ///
    /// ```swift
    /// let values = try PlistPropertyLoader(url: url).load()
    /// ```
    ///
    /// - Returns: The root dictionary's keys and values.
    /// - Throws: ``PropertyError`` with code ``PropertyError/Code/missingFile``,
    ///   ``PropertyError/Code/unreadableFile``,
    ///   ``PropertyError/Code/malformedFile``,
    ///   ``PropertyError/Code/rootNotDictionary`` or
    ///   ``PropertyError/Code/invalidValue``.
    public func load() throws -> [String: PropertyValue] {
        let source = sourceDescription
        let data = try location.read(format: Self.format)
        guard !data.isEmpty else {
            throw PropertyError(code: .malformedFile, source: source, format: Self.format, message: "the file is empty")
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            if data.starts(with: Array("bplist".utf8)) {
                // After a binary failure the system parser retries the bytes
                // as text and reports that attempt, which would be misleading.
                throw PropertyError(code: .malformedFile, source: source, format: Self.format,
                                    message: "the binary property list is invalid, truncated "
                                        + "or too deeply nested",
                                    underlyingError: error)
            }
            let (message, line) = Self.parserMessage(error)
            throw PropertyError(code: .malformedFile, source: source, format: Self.format,
                                line: line, message: message, underlyingError: error)
        }
        guard let dictionary = root as? [String: Any] else {
            throw PropertyError(code: .rootNotDictionary, source: source, format: Self.format,
                                message: "expected a dictionary at the top level, found \(Self.kindName(of: root))")
        }
        var converter = PlistValueConverter(source: source)
        return try converter.convertDictionary(dictionary, depth: 1)
    }

    static let format = "property list"

    static func kindName(of value: Any) -> String {
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

    /// Extracts the parser's own explanation and line number from a
    /// Foundation error, dropping the location suffix that `PropertyError`
    /// already renders.
    static func parserMessage(_ error: any Error) -> (message: String, line: Int?) {
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
           message.dropFirst().first.map({ !$0.isUppercase }) ?? true {
            message = first.lowercased() + message.dropFirst()
        }
        if message.isEmpty { message = "the data is not a valid property list" }
        return (message, line)
    }
}

/// Converts the Foundation objects returned by `PropertyListSerialization`
/// into ``PropertyValue``, with key paths for errors.
struct PlistValueConverter {
    let source: String
    private var path: [PropertyPathComponent] = []

    init(source: String) {
        self.source = source
    }

    mutating func convertDictionary(_ dictionary: [String: Any], depth: Int) throws -> [String: PropertyValue] {
        if depth > JSONPropertyParser.maximumDepth {
            throw error(.malformedFile, "nesting is deeper than the maximum of \(JSONPropertyParser.maximumDepth) levels")
        }
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
            if depth + 1 > JSONPropertyParser.maximumDepth {
                throw error(.malformedFile, "nesting is deeper than the maximum of \(JSONPropertyParser.maximumDepth) levels")
            }
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

    private func convertNumber(_ number: NSNumber) throws -> PropertyValue {
        // Booleans and numbers are both NSNumber; the Objective-C type code
        // tells them apart ("c"/"B" is how CFBoolean and Swift Bool bridge on
        // every platform; property lists contain no char-sized integers).
        let typeCode = String(cString: number.objCType)
        switch typeCode {
        case "c", "B":
            return .bool(number.boolValue)
        case "f", "d":
            let double = number.doubleValue
            guard double.isFinite else {
                throw error(.invalidValue, "infinity and NaN are not supported")
            }
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
        PropertyError(code: code, source: source, format: PlistPropertyLoader.format,
                      keyPath: PropertyPathComponent.format(path), message: message)
    }
}
