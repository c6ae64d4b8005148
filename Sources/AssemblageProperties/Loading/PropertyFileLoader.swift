import Assemblage
public import Foundation

/// A loader that reads a file of one ``PropertyFileFormat`` from a file URL, a bundle resource or bytes in memory.
///
/// The library's two formats have names of their own: ``JSONPropertyLoader`` is
/// `PropertyFileLoader<JSONPropertyFormat>` and ``PlistPropertyLoader`` is `PropertyFileLoader<PlistPropertyFormat>`.
/// The loader finds and reads the bytes; the format parses them. Every ``PropertyError`` it throws names the
/// file (or the missing resource and its bundle, or the in-memory description) as its ``PropertyError/source``.
///
/// ```swift
/// let defaults = JSONPropertyLoader(bundle: .main, name: "defaults")
/// let overrides = PlistPropertyLoader(url: URL(fileURLWithPath: "/etc/myapp/Overrides.plist"))
/// let properties = try Properties(loaders: [defaults, overrides])
/// ```
public struct PropertyFileLoader<Format: PropertyFileFormat>: PropertyLoader {
    /// Where the bytes come from.
    private enum Location {
        /// A concrete URL.
        case url(URL)
        /// A bundle lookup that found nothing when the loader was created.
        case missingResource(fileName: String, bundlePath: String)
        /// Bytes supplied directly.
        case data(Data, description: String)
    }

    private let location: Location

    /// Creates a loader for the file at `url`.
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

    /// Creates a loader for the resource `<name>.<extension>` in `bundle`, the extension being the format's
    /// ``PropertyFileFormat/fileExtension`` (`json`, `plist`).
    ///
    /// The resource is looked up now; if it does not exist, ``load()`` throws
    /// `missingFile` naming the resource and the bundle. `name` may include the extension.
    /// In a Swift package, pass `Bundle.module` to read a target's resources (this works on Linux too); with
    /// `.copy("Directory")` resources, pass the directory as `subdirectory`.
    ///
    /// ```swift
    /// let loader = JSONPropertyLoader(bundle: .module, name: "defaults", subdirectory: "Config")
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: The bundle containing the resource.
    ///   - name: The resource name, with or without the extension.
    ///   - subdirectory: The resource's directory inside the bundle, if any.
    public init(bundle: Bundle = .main, name: String, subdirectory: String? = nil) {
        let fileExtension = Format.fileExtension
        let suffix = "." + fileExtension
        let baseName = name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        if let url = bundle.url(forResource: baseName, withExtension: fileExtension, subdirectory: subdirectory) {
            location = .url(url)
        } else {
            var fileName = baseName + suffix
            if let subdirectory, !subdirectory.isEmpty { fileName = subdirectory + "/" + fileName }
            location = .missingResource(fileName: fileName, bundlePath: bundle.bundlePath)
        }
    }

    /// Creates a loader that parses bytes already in memory.
    ///
    /// Use it for configuration embedded in code or fetched elsewhere.
    ///
    /// ```swift
    /// let loader = JSONPropertyLoader(data: Data(#"{"port": 8080}"#.utf8), description: "embedded defaults")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The encoded file.
    ///   - description: A name for the source, shown in error messages.
    public init(data: Data, description: String) {
        location = .data(data, description: description)
    }

    /// The file URL this loader reads, or `nil` for in-memory data and for bundle resources that were not found.
    ///
    /// Useful to log which file was picked up; the bundle lookup happens when the loader is created.
    ///
    /// ```swift
    /// JSONPropertyLoader(bundle: .main, name: "settings").url // …/settings.json
    /// ```
    public var url: URL? {
        if case .url(let url) = location { return url }
        return nil
    }

    /// The file path, the missing resource and its bundle, or the in-memory description.
    ///
    /// Every ``PropertyError`` thrown by ``load()`` uses this as its ``PropertyError/source``.
    ///
    /// ```swift
    /// JSONPropertyLoader(url: URL(fileURLWithPath: "/a/b.json")).sourceDescription // "/a/b.json"
    /// ```
    public var sourceDescription: String {
        switch location {
        case .url(let url): return url.isFileURL ? url.path : url.absoluteString
        case .missingResource(let fileName, let bundlePath): return "\(fileName) in bundle \(bundlePath)"
        case .data(_, let description): return description
        }
    }

    /// Reads the file and parses it with the format.
    ///
    /// ```swift
    /// let values = try JSONPropertyLoader(url: url).load()
    /// ```
    ///
    /// - Returns: The root dictionary's keys and values.
    /// - Throws: ``PropertyError`` with code `missingFile` or
    ///   `unreadableFile`, or the format's error: `malformedFile`
    ///   (with the line, and for JSON the column), `rootNotDictionary`,
    ///   `invalidValue` or (JSON only) `duplicateKey`.
    public func load() throws -> [String: PropertyValue] {
        try Format.parse(read(), source: sourceDescription)
    }

    /// Reads the bytes, mapping failures to ``PropertyError``.
    private func read() throws -> Data {
        func failure(_ code: PropertyError.Code, _ message: String, _ error: (any Error)? = nil) -> PropertyError {
            PropertyError(
                code: code, source: sourceDescription, format: Format.name, message: message,
                underlyingError: error)
        }
        switch location {
        case .data(let data, _):
            return data
        case .missingResource:
            throw failure(.missingFile, "no such resource in the bundle")
        case .url(let url):
            guard url.isFileURL else { throw failure(.unreadableFile, "only file URLs are supported") }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw failure(.missingFile, "no such file")
            }
            guard !isDirectory.boolValue else { throw failure(.unreadableFile, "the path is a directory") }
            do {
                return try Data(contentsOf: url)
            } catch {
                let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
                throw failure(
                    .unreadableFile, debug.flatMap { $0.isEmpty ? nil : $0 } ?? error.localizedDescription,
                    error)
            }
        }
    }
}

/// A file format that a ``PropertyFileLoader`` reads: ``JSONPropertyFormat`` or ``PlistPropertyFormat``.
///
/// A format names itself for error messages, gives the extension of its bundle resources, and parses a file's
/// bytes. Conform a type of your own to read another format with the same loader:
///
/// ```swift
/// enum KeyValueFormat: PropertyFileFormat {
///     static let name = "key-value file"
///     static let fileExtension = "conf"
///     static func parse(_ data: Data, source: String) throws -> [String: PropertyValue] { … }
/// }
/// let loader = PropertyFileLoader<KeyValueFormat>(bundle: .main, name: "app")   // app.conf
/// ```
public protocol PropertyFileFormat: Sendable {
    /// The format's name in error messages: `"JSON"` makes "Malformed JSON in …".
    ///
    /// ```swift
    /// JSONPropertyFormat.name // "JSON"
    /// ```
    static var name: String { get }

    /// The extension of the format's bundle resources, without the dot.
    ///
    /// ```swift
    /// PlistPropertyFormat.fileExtension // "plist"
    /// ```
    static var fileExtension: String { get }

    /// Parses a file's bytes into its top-level properties.
    ///
    /// ```swift
    /// try JSONPropertyFormat.parse(Data(#"{"port": 80}"#.utf8), source: "inline") // ["port": .integer(80)]
    /// ```
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - source: The loader's ``PropertyFileLoader/sourceDescription``, to name in errors.
    /// - Returns: The root dictionary's keys and values.
    /// - Throws: A ``PropertyError`` whose ``PropertyError/source`` is `source`.
    static func parse(_ data: Data, source: String) throws -> [String: PropertyValue]
}

/// A loader of JSON files whose root is an object: `PropertyFileLoader<JSONPropertyFormat>`.
///
/// ```swift
/// // settings.json
/// // {
/// //     // Where the API lives.
/// //     "baseURL": "https://api.example.com/v1",
/// //     "retries": 3
/// // }
/// let properties = try Properties(loader: JSONPropertyLoader(bundle: .main, name: "settings"))
/// properties.property("retries", as: Int.self) // 3
/// ```
public typealias JSONPropertyLoader = PropertyFileLoader<JSONPropertyFormat>

/// The Swinject 1.x (SwinjectPropertyLoader) spelling of ``JSONPropertyLoader``.
///
/// ```swift
/// let loader = JsonPropertyLoader(bundle: .main, name: "properties")
/// ```
@_documentation(visibility: internal)
public typealias JsonPropertyLoader = JSONPropertyLoader

/// A loader of property lists whose root is a dictionary: `PropertyFileLoader<PlistPropertyFormat>`.
///
/// ```swift
/// let properties = try Properties(loader: PlistPropertyLoader(bundle: .main, name: "Settings"))
/// let launch = properties.property("launchDate", as: Date.self)
/// ```
public typealias PlistPropertyLoader = PropertyFileLoader<PlistPropertyFormat>

/// JSON whose root is an object, parsed strictly (RFC 8259) with comments; the format of ``JSONPropertyLoader``.
///
/// The deliberate differences from RFC 8259:
/// - `//` line comments and `/* */` block comments are allowed wherever whitespace is. Comment markers inside
///   strings, as in `"http://example.com"`, are ordinary text.
/// - A leading UTF-8 byte-order mark is ignored. UTF-16 and UTF-32 files are rejected, as is any invalid UTF-8.
/// - `null` is rejected (`invalidValue`): properties have no null; remove the key instead.
/// - A key repeated within one object is rejected (`duplicateKey`).
/// - Numbers overflowing `Double`, such as `1e400`, are rejected (`invalidValue`) rather
///   than read as infinity.
/// - Arrays and objects may nest at most 64 levels deep (the root object counts as one). The parser does not
///   recurse, so even 10,000 levels of hostile input fail cleanly; the limit keeps later recursive work on the
///   values (equality, decoding) cheap on small thread stacks.
///
/// Numbers without a fraction or exponent load as ``PropertyValue/integer(_:)`` when they fit in `Int`, all others
/// as ``PropertyValue/double(_:)``; both read as `Int` and `Double` where the conversion is exact. Every error
/// reports the line, the column (counted in Unicode scalars) and the key path, which Foundation's JSON parsers do
/// not.
///
/// ```swift
/// let loader = JSONPropertyLoader(data: Data(#"{"port": 80,}"#.utf8), description: "settings.json")
/// try loader.load()
/// // Malformed JSON in settings.json at line 1, column 13: trailing comma before '}'
/// ```
public enum JSONPropertyFormat: PropertyFileFormat {
    /// `"JSON"`.
    ///
    /// ```swift
    /// JSONPropertyFormat.name // "JSON"
    /// ```
    public static let name = "JSON"

    /// `"json"`.
    ///
    /// ```swift
    /// JSONPropertyLoader(bundle: .main, name: "settings")   // settings.json
    /// ```
    public static let fileExtension = "json"

    /// Parses UTF-8 JSON text whose root is an object.
    ///
    /// ```swift
    /// try JSONPropertyFormat.parse(Data(#"{"port": 80}"#.utf8), source: "inline") // ["port": .integer(80)]
    /// ```
    ///
    /// - Parameters:
    ///   - data: The UTF-8 encoded JSON text.
    ///   - source: The name to give in errors.
    /// - Returns: The root object's keys and values.
    /// - Throws: ``PropertyError`` with code `malformedFile`,
    ///   `rootNotDictionary`, `invalidValue` or
    ///   `duplicateKey`, always with the line and column.
    public static func parse(_ data: Data, source: String) throws -> [String: PropertyValue] {
        try JSONPropertyParser.parse(data, source: source)
    }
}

/// Property lists whose root is a dictionary, in any form `PropertyListSerialization` reads (XML, binary,
/// OpenStep); the format of ``PlistPropertyLoader``.
///
/// Property-list dates and data load as ``PropertyValue/date(_:)`` and ``PropertyValue/data(_:)``; `<integer>`
/// as ``PropertyValue/integer(_:)``; `<real>` as ``PropertyValue/double(_:)``; `<true/>`/`<false/>` as
/// ``PropertyValue/bool(_:)``. Non-finite reals (`inf`, `nan`) and integers beyond `Int` are rejected with
/// `invalidValue`, nesting deeper than 64 levels as for JSON. Unlike JSON, duplicate keys
/// cannot be detected: the system parser keeps the last occurrence. Syntax errors carry the line number when the
/// system parser reports one, but no column.
///
/// ```swift
/// let bytes = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
/// try PlistPropertyLoader(data: bytes, description: "generated").load() // ["a": .integer(1)]
/// ```
public enum PlistPropertyFormat: PropertyFileFormat {
    /// `"property list"`.
    ///
    /// ```swift
    /// PlistPropertyFormat.name // "property list"
    /// ```
    public static let name = "property list"

    /// `"plist"`.
    ///
    /// ```swift
    /// PlistPropertyLoader(bundle: .main, name: "Settings")   // Settings.plist
    /// ```
    public static let fileExtension = "plist"

    /// Parses a property list whose root is a dictionary.
    ///
    /// ```swift
    /// try PlistPropertyFormat.parse(plistData, source: "Settings.plist")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The encoded property list.
    ///   - source: The name to give in errors.
    /// - Returns: The root dictionary's keys and values.
    /// - Throws: ``PropertyError`` with code `malformedFile`,
    ///   `rootNotDictionary` or `invalidValue`.
    public static func parse(_ data: Data, source: String) throws -> [String: PropertyValue] {
        try PlistPropertyParser.parse(data, source: source)
    }
}
