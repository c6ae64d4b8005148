#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// Writing a profile's renderings to files.

extension StartupProfile {
    /// Writes the profile: to a folder, all three renderings; to a file, the one its extension names.
    ///
    /// A URL ending in `.json` gets ``chromeTraceJSON``, `.svg` ``flameGraphSVG`` and `.txt` ``text``. Any other URL
    /// is a folder, made if missing, that gets `startup-profile.trace.json`, `startup-profile.svg` and
    /// `startup-profile.txt`.
    ///
    /// ```swift
    /// let written = try profile.write(to: URL(filePath: "build/profile"))
    /// ```
    ///
    /// - Parameter url: A file URL: a folder, or a file ending in `.json`, `.svg` or `.txt`.
    /// - Returns: The files written.
    /// - Throws: ``ContainerError`` with code `profileNotWritten` when the URL is not a file URL, or a folder or
    ///   file cannot be made or written there (files written before the failure stay).
    @discardableResult
    public func write(to url: URL) throws(ContainerError) -> [URL] {
        guard url.isFileURL else { throw Self.notWritten(url, because: "it is not a file URL") }
        let renderings: [String: () -> String] = [
            "json": { chromeTraceJSON }, "svg": { flameGraphSVG },
            "txt": { text },
        ]
        if let render = renderings[url.pathExtension.lowercased()] {
            try Self.write(render(), to: url)
            return [url]
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw Self.notWritten(url, because: "the folder cannot be made (\(error))")
        }
        let files = [
            ("startup-profile.trace.json", chromeTraceJSON), ("startup-profile.svg", flameGraphSVG),
            ("startup-profile.txt", text),
        ]
        var written: [URL] = []
        for (name, content) in files {
            let file = url.appendingPathComponent(name)
            try Self.write(content, to: file)
            written.append(file)
        }
        return written
    }

    private static func write(_ content: String, to file: URL) throws(ContainerError) {
        do {
            try Data(content.utf8).write(to: file)
        } catch {
            throw notWritten(file, because: "\(error)")
        }
    }

    private static func notWritten(_ url: URL, because reason: String) -> ContainerError {
        ContainerError(
            code: .profileNotWritten,
            message: "The startup profile could not be written to \(url.path): \(reason). Fix: pass a "
                + "folder that can be made, or a writable file ending in .json, .svg or .txt.")
    }
}
