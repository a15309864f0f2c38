import Foundation
import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input too large for a document is refused with ``JSONParseError/Kind/documentTooLarge``
/// before any tape is allocated, and a large document's tape starts at what typical JSON needs,
/// not at what the densest JSON would: neither stops the program under a limit on memory.
@Suite("Document size limit")
struct DocumentSizeLimitTests {
    /// Whether the child can limit its address space: `RLIMIT_AS` as Linux's C library declares it.
    static let canLimitAddressSpace: Bool = {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }()

    /// A sparse file of `size` bytes starting with `[` (the rest reads as zeros), in the
    /// temporary folder; it takes no disk space.
    static func sparseFile(size: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonmodelkit-sparse-\(UUID().uuidString).json").path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bracket = UInt8(ascii: "[")
        try #require(write(descriptor, &bracket, 1) == 1)
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        return path
    }

    @Test func aFileOverTheLimitIsAnErrorNotAnAbort() throws {
        let path = try Self.sparseFile(size: 10 << 30)
        defer { unlink(path) }
        #expect {
            _ = try JSONDocument(contentsOf: URL(fileURLWithPath: path))
        } throws: { error in
            (error as? JSONParseError)?.kind == .documentTooLarge
        }
    }

    /// Under an address-space limit that leaves room for the file and a typical tape but not
    /// for a tape sized for the densest input, the scan still runs and reports the file's fault
    /// (the zeros after its `[`).
    @Test(ChildTestProcess.available, .enabled(if: canLimitAddressSpace, "needs Linux's address-space limit (RLIMIT_AS)"))
    func aLargeTapeStartsAtWhatTypicalJSONNeeds() throws {
        #if os(Linux)
        guard
            let report = try ChildTestProcess.run(
                filter: #"JSONModelKitCoreTests\.DocumentSizeLimitTests/childParsesUnderALimit"#, workload: "limit", label: "the address-space limit child")
        else { return }
        #expect(report.fields["result"] == "error", "\(report.fields)")
        #endif
    }

    @Test(ChildTestProcess.child()) func childParsesUnderALimit() throws {
        #if os(Linux)
        let size = 1 << 30
        let path = try Self.sparseFile(size: size)
        defer { unlink(path) }
        // The file mapped, plus 2 GiB: a tape of one word per eight bytes (1 GiB) fits, one of
        // 4 GiB for one word per two bytes would not.
        var saved = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved) == 0)
        var limit = saved
        limit.rlim_cur = min(saved.rlim_max, rlim_t(ProcessMemory.status("VmSize") + size + (2 << 30)))
        try #require(setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0)
        let result: String
        do {
            _ = try JSONDocument(contentsOf: URL(fileURLWithPath: path))
            result = "parsed"
        } catch {
            result = "error"
        }
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved)
        try ChildTestProcess.write(["result": result])
        #endif
    }
}
