import Foundation

/// Reading the files commands are given.
enum ToolFiles {
    /// A file that could not be read, named in the message.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot read \(path): no such file or not readable" }
    }

    /// The contents of the file at `path`, or of standard input for `-`.
    static func read(_ path: String) throws(ReadError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = try? Data(contentsOf: URL(fileURLWithPath: path))
        else { throw ReadError(path: path) }
        return data
    }
}
