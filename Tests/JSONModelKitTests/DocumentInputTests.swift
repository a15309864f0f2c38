import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// A file in the temporary folder, removed by `remove()`.
private struct MappedTestFile {
    let url: URL

    init(_ bytes: [UInt8]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-input-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
    }

    init(_ text: String) throws { try self.init(Array(text.utf8)) }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Drops the file from the page cache and reads it back in, as a file read before a run is
    /// cached: by read-ahead, which a kernel with large folios caches in large folios (the pages
    /// of a write stay small ones). Where the kernel cannot drop them, the file stays as cached.
    func recache() {
        #if os(Linux)
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        fsync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        #endif
        _ = try? Data(contentsOf: url)
    }
}

/// `count` shapes, alternating circles and squares, with strings long enough to cross pages.
private func shapesJSON(count: Int) -> String {
    var parts: [String] = []
    for index in 0..<count {
        let kind = index % 2 == 0 ? "circle" : "square"
        let size = index % 2 == 0 ? "\"radius\": \(index)" : "\"side\": \(index)"
        parts.append(#"{"type": "\#(kind)", \#(size), "name": "shape \#(index) \#(String(repeating: "x", count: index % 300))"}"#)
    }
    return "[\n" + parts.joined(separator: ",\n") + "\n]"
}

@Suite("Document input: Data in place, mapped files")
struct DocumentInputTests {
    // MARK: Data

    @Test func dataIsKeptNotCopied() throws {
        let data = Data(#"{"name": "Ann", "tags": ["a", "b"], "n": 1.5, "note": "long enough to live outside the value"}"#.utf8)
        let document = try JSONDocument(data: data)
        guard case .data(let kept) = document.storage else {
            Issue.record("expected the Data itself as the storage")
            return
        }
        // The document reads the Data's own buffer.
        data.withUnsafeBytes { #expect(UnsafeRawPointer(kept.buffer.baseAddress) == $0.baseAddress) }
        #expect(document.byteCount == data.count)
        #expect(document.root["name"]?.stringValue == "Ann")
        #expect(document.root["n"]?.doubleValue == 1.5)
        #expect(document.root.value == ["name": "Ann", "tags": ["a", "b"], "n": 1.5, "note": "long enough to live outside the value"])
    }

    /// A `Data` of a few bytes may keep them inside the value, where no address outlives a
    /// closure: the document copies those into an array.
    @Test func aSmallDataIsCopied() throws {
        let data = Data(#"{"a": 1}"#.utf8)
        let document = try JSONDocument(data: data)
        guard case .array = document.storage else {
            Issue.record("expected an array for a small Data")
            return
        }
        #expect(document.root["a"]?.intValue == 1)
    }

    /// A slice of a larger `Data` is read from its own start, through the kept address.
    @Test func aDataSliceIsReadFromItsStart() throws {
        let whole = Data(("xxxx" + #"{"name": "Ann", "padding": "\#(String(repeating: "p", count: 100))"}"# + "yyyy").utf8)
        let slice = whole[4..<(whole.count - 4)]
        let document = try JSONDocument(data: slice)
        #expect(document.root["name"]?.stringValue == "Ann")
        #expect(document.byteCount == slice.count)
    }

    @Test func aChangeToTheCallersDataDoesNotReachTheDocument() throws {
        var data = Data(String(repeating: " ", count: 100).utf8) + Data(#"{"name": "Ann"}"#.utf8)
        let document = try JSONDocument(data: data)
        data.replaceSubrange(100..<data.count, with: Data(#"{"name": "Bob"}"#.utf8))
        data.append(contentsOf: [0xFF, 0xFF])
        #expect(document.root["name"]?.stringValue == "Ann")
        #expect(document.root.jsonString() == #"{"name":"Ann"}"#)
    }

    @Test func slicesAndInlineDataRead() throws {
        let whole = Data(#"garbage[{"type": "circle", "radius": 2}]tail"#.utf8)
        let slice = whole[whole.startIndex + 7..<whole.count - 4]
        #expect(slice.startIndex == 7)
        let shapes = try PolyShape.array(from: slice)
        #expect(shapes.count == 1)
        #expect((shapes[0] as? PolyCircle)?.radius as Double? == 2)
        // Small enough to be stored inline in the Data value.
        let tiny = Data("[1,2]".utf8)
        #expect(try JSONDocument(data: tiny).root.value == [1, 2])
        #expect(try JSONDocument(data: Data("7".utf8)).root.intValue == 7)
    }

    @Test func badDataStillThrowsWithItsPosition() {
        for (text, line, column) in [("{\n  \"a\": tru\n}", 2, 8), ("", 1, 1), ("[1,]", 1, 3), ("\u{FEFF}", 1, 1)] {
            do {
                _ = try JSONDocument(data: Data(text.utf8))
                Issue.record("expected an error for \(text)")
            } catch {
                #expect(error.line == line, "\(text)")
                #expect(error.column == column, "\(text)")
            }
        }
        #expect(throws: JSONParseError.self) { try JSONDocument(data: Data([0x22, 0xFF, 0x22])) }  // invalid UTF-8
        #expect(throws: JSONModelError.self) { try PolyShape.array(from: Data("{}".utf8)) }
        #expect(throws: JSONModelError.self) { try PolyShape(json: Data("[]".utf8)) }
    }

    @Test func modelsOverDataOutliveTheCallersValue() throws {
        var shape: PolyShape?
        do {
            let data = Data(#"{"type": "square", "side": 4, "name": "box"}"#.utf8)
            shape = try PolyShape.make(json: data)
        }
        #expect((shape as? PolySquare)?.side as Double? == 4)
        #expect(shape?.name as String? == "box")
    }

    // MARK: Files

    @Test func aLargeFileIsMappedAndReadsLikeData() throws {
        let text = shapesJSON(count: 3_000)
        #expect(text.utf8.count > 4 * JSONDocument.mappedReleaseInterval)
        let file = try MappedTestFile(text)
        defer { file.remove() }
        let document = try JSONDocument(contentsOf: file.url)
        #expect(document.isMapped)
        #expect(document.byteCount == text.utf8.count)
        // The scan handed its pages back; reads bring them back with the same bytes.
        #expect(document.root.value == (try JSONDocument(string: text).root.value))
        let shapes = try PolyShape.array(from: file.url)
        #expect(shapes.count == 3_000)
        #expect(shapes[2_999] is PolySquare)
        #expect((shapes[2_998] as? PolyCircle)?.radius as Double? == 2_998)
        #expect(shapes[1_001].name as String? == "shape 1001 " + String(repeating: "x", count: 1_001 % 300))
        #expect(!shapes.isElementBuilt(at: 5))
    }

    /// Strings from an array or a `Data` are made without the standard library checking their
    /// UTF-8 again (the scanner did); a mapped file's are checked, since the file may change.
    /// Both must equal checked strings in every view: ASCII or not, escaped or not, short,
    /// long, and at the very end of the input.
    @Test func stringsMadeWithoutASecondCheckEqualCheckedOnes() throws {
        let long = String(repeating: #"a\u00e9\n\ud83d\ude00"#, count: 400)  // past any buffer on the stack
        let texts = [
            "", "plain", "exactly15bytes!", "sixteen bytes ok", String(repeating: "x", count: 100),
            #"caf\u00e9"#, "café", "名前:前田あゆみ", "😀 and 😀", #"\u0000"#, #"tab\tend\\"#, #"\\"#,
            #"\u00e9"#, #"mixed é then \n and \u20AC"#, long,
        ]
        let json = "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        let file = try MappedTestFile(json + String(repeating: " ", count: 4 * JSONDocument.mappedReleaseInterval))
        defer { file.remove() }
        let mapped = try JSONDocument(contentsOf: file.url)
        let fromArray = try JSONDocument(bytes: Array(json.utf8))
        let fromData = try JSONDocument(data: Data(json.utf8))
        #expect(mapped.isMapped)
        #expect(!mapped.textIsFixed && fromArray.textIsFixed && fromData.textIsFixed)
        // Short strings of a mapped file are made directly only when ASCII: the bytes checked are
        // then the ones copied, where other bytes would need the text to stay as scanned.
        #expect(!mapped.smallStrings.contains(.nonASCII) && fromArray.smallStrings.contains(.nonASCII))
        for document in [fromArray, fromData, mapped] {
            let strings = document.root.elements.compactMap { $0.stringValue }
            #expect(strings == expected)
            for (string, want) in zip(strings, expected) {
                #expect(Array(string.utf8) == Array(want.utf8))
                #expect(Array(string.utf16) == Array(want.utf16))
                #expect(string.utf16.count == want.utf16.count)  // counted from the bytes only when marked ASCII
                #expect(string.count == want.count)
                #expect(string.unicodeScalars.count == want.unicodeScalars.count)
                #expect(string.hashValue == want.hashValue)
            }
        }
        // A document that is one string, ending at its last byte.
        let single = try JSONDocument(bytes: Array(#""名前 \n end""#.utf8))
        #expect(single.root.stringValue == "名前 \n end")
    }

    /// Integers from an array or a `Data` are read without checking their digits again (the
    /// scanner did); a mapped file's are checked, since the file may change. Both must read the
    /// same values.
    @Test func integersReadWithoutASecondCheckEqualCheckedOnes() throws {
        let texts = ["0", "-0", "7", "-12", "12345678", "-123456789", "9223372036854775807", "-9223372036854775808",
            "18446744073709551615", "18446744073709551616", "1.0", "1e2", "2.5"]
        let json = "[" + texts.joined(separator: ", ") + "]"
        let file = try MappedTestFile(json + String(repeating: " ", count: 4 * JSONDocument.mappedReleaseInterval))
        defer { file.remove() }
        let mapped = try JSONDocument(contentsOf: file.url)
        let fromArray = try JSONDocument(bytes: Array(json.utf8))
        #expect(mapped.isMapped && !mapped.textIsFixed)
        for document in [fromArray, mapped] {
            let read = document.root.elements.map { $0.exactInteger.map { "\($0.negative ? "-" : "")\($0.magnitude)" } }
            #expect(read == ["0", "-0", "7", "-12", "12345678", "-123456789", "9223372036854775807", "-9223372036854775808",
                "18446744073709551615", nil, "1", "100", nil])
            // Their texts, short and long, as written, from either storage.
            #expect(document.root.elements.map { $0.numberValue?.description } == texts)
        }
    }

    @Test func aSmallFileIsReadNotMapped() throws {
        let file = try MappedTestFile(#"[{"type": "circle", "radius": 1}]"#)
        defer { file.remove() }
        let document = try JSONDocument(contentsOf: file.url)
        #expect(!document.isMapped)
        #expect(try PolyShape.array(from: file.url)[0] is PolyCircle)
    }

    @Test func invalidJSONInAMappedFileGivesItsLineAndColumn() throws {
        var text = shapesJSON(count: 2_000)
        text.removeLast()  // no closing bracket: the fault is at the very end, after every release
        let file = try MappedTestFile(text)
        defer { file.remove() }
        do {
            _ = try JSONDocument(contentsOf: file.url)
            Issue.record("expected a parse error")
        } catch let error as JSONParseError {
            #expect(error.line == 2_002)  // the line after the last element
            #expect(error.description.contains("end"))
        }
        let broken = try MappedTestFile(String(repeating: " ", count: 70_000) + "[1, 2, x]")
        defer { broken.remove() }
        let error = try #require(throws: JSONModelError.self) { try PolyShape.array(from: broken.url) }
        #expect(error.parseError?.column == 70_008)
        let notAnArray = try MappedTestFile(String(repeating: " ", count: 20_000) + "{}")
        defer { notAnArray.remove() }
        #expect(throws: JSONModelError.self) { try PolyShape.array(from: notAnArray.url) }
    }

    @Test func filesThatCannotBeReadThrowTheReadError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-missing-\(UUID().uuidString).json")
        #expect(throws: (any Error).self) { try JSONDocument(contentsOf: missing) }
        #expect(throws: (any Error).self) { try PolyShape.array(from: missing) }
        #expect(throws: (any Error).self) { try JSONDocument(contentsOf: FileManager.default.temporaryDirectory) }
        let empty = try MappedTestFile("")
        defer { empty.remove() }
        #expect(throws: JSONParseError.self) { try JSONDocument(contentsOf: empty.url) }
    }

    @Test func aDocumentOverAMappedFileOutlivesEverythingElse() throws {
        let text = shapesJSON(count: 1_000)
        var shape: PolyShape?
        do {
            let file = try MappedTestFile(text)
            shape = try PolyShape.array(from: file.url)[999]
            file.remove()  // unlinked: the mapping keeps the bytes
        }
        #expect(shape is PolySquare)
        #expect(shape?.name as String? == "shape 999 " + String(repeating: "x", count: 999 % 300))
    }

    /// The resident size of the mapping that starts at `address`, from `/proc/self/smaps` (a
    /// walk of the page tables: exact, where the process's own counters are approximate); nil
    /// where the file is missing.
    static func residentBytes(ofMappingAt address: Int) -> Int? {
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        var inside = false
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                inside = range.split(separator: "-").first.flatMap { Int($0, radix: 16) } == address
            } else if inside, fields.first == "Rss:", fields.count > 1, let kilobytes = Int(fields[1]) {
                return kilobytes * 1024
            }
        }
        return nil
    }

    /// A mapped file's pages are handed back as the scan passes them, and a lazy read maps in
    /// what the kernel maps around one fault, not a whole huge page of the file: on kernels that
    /// cache files in 2 MiB folios, handing back less than the 64 KiB mapped around a fault did
    /// not last, and a mapping that lined up with such folios took them whole on each read.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps"), "needs /proc/self/smaps"))
    func aMappedFileHoldsOnlyThePagesInUse() throws {
        let text = shapesJSON(count: 40_000)
        #expect(text.utf8.count > 6 << 20)
        let file = try MappedTestFile(text)
        defer { file.remove() }
        file.recache()
        let document = try JSONDocument(contentsOf: file.url)
        let shapes = try PolyShape.array(from: document.root)
        guard case .mapped(let mapped) = document.storage else {
            Issue.record("the file was not mapped")
            return
        }
        let address = Int(bitPattern: mapped.base)
        #expect(address % (2 << 20) == MappedFile.releaseUnit, "mapped where the file lines up with huge pages")
        let scanned = try #require(Self.residentBytes(ofMappingAt: address))
        #expect(scanned <= 512 << 10, "after the scan the mapping holds \(scanned) bytes")
        for index in stride(from: 0, to: 40_000, by: 2_000) {
            #expect(shapes[index].name as String? == "shape \(index) " + String(repeating: "x", count: index % 300))
        }
        let read = try #require(Self.residentBytes(ofMappingAt: address))
        // 20 reads: about 64 KiB each, where huge pages would have mapped in the whole file.
        #expect(read <= 3 << 20, "after 20 reads the mapping holds \(read) bytes of \(text.utf8.count)")
    }

    /// Pages are handed back in whole 64 KiB stretches, aligned in memory: the kernel maps in
    /// that much around a fault, and on kernels that cache files in large folios a stretch
    /// handed back in part was mapped in again by the next fault, so that a scan handing back
    /// every 16 KiB held most of a file. The end of the file is handed back whole.
    @Test func pagesAreHandedBackInWholeAlignedStretches() throws {
        let text = shapesJSON(count: 3_000)
        let file = try MappedTestFile(text)
        defer { file.remove() }
        let mapped = try #require(MappedFile.map(path: file.url.path, minimumSize: 0))
        let base = Int(bitPattern: mapped.base)
        let unit = MappedFile.releaseUnit
        #expect(unit >= 64 << 10 && unit % DocumentPages.pageSize == 0)
        var offset = 0
        for end in stride(from: 16 << 10, to: mapped.count, by: 16 << 10) {
            let next = mapped.releasePages(from: offset, to: end)
            #expect(next <= end && next >= offset)
            #expect(next == offset || (base + next) % unit == 0, "handed back to \(next), inside a stretch")
            #expect(end - next < unit, "held back more than one stretch")
            offset = next
        }
        #expect(mapped.releasePages(from: offset, to: mapped.count) == mapped.count)
    }

    // MARK: Huge pages

    /// Whether `address` lies in a mapping that `/proc/self/smaps` says may use transparent huge
    /// pages; nil where the file or its `THPeligible` field is missing.
    static func hugePageEligible(_ address: Int) -> Bool? {
        // Read to the end: the file says its size is 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "THPeligible:", fields.count > 1 {
                return fields[1] == "1"
            }
        }
        return nil
    }

    /// Whether transparent huge pages are given where a program asks (`madvise` mode), and
    /// `/proc/self/smaps` says which mappings may use them: what the next test needs to check.
    static let hugePagesCanBeChecked: Bool = {
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        let smaps = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() ?? Data()
        return mode.contains("[madvise]") && String(decoding: smaps, as: UTF8.self).contains("THPeligible:")
    }()

    /// A document of 16 MiB or more asks Linux to back its tape with huge pages, from a 2 MiB
    /// boundary; a smaller one does not, and both read the same. The advice goes with the tape's
    /// own pages: once the documents are freed, no memory their tapes held is advised but the
    /// one reservation kept for the next large tape, though the allocator would hand the tape of
    /// a second large document out of its heap, to be reused by other allocations after it. The
    /// second large document takes the pages the first one's tape left; pages past
    /// ``DocumentPages/keptLimit`` are never kept.
    ///
    /// Checked in a child process, so that no other test's document is being read meanwhile.
    @Test(ChildTestProcess.available, .enabled(if: hugePagesCanBeChecked, "needs transparent huge pages in madvise mode and THPeligible in /proc/self/smaps"))
    func aLargeDocumentsTapeAsksForHugePages() throws {
        let report = try ChildTestProcess.run(
            filter: #"JSONModelKitTests\.DocumentInputTests/hugePageChild"#, workload: "huge-pages", label: "huge pages child")
        guard let report else { return }
        #expect(report.fields["large"] == "true", "the tape of a large document is not advised: \(report.fields)")
        #expect(report.fields["aligned"] == "true", "the tape of a large document does not start on a huge page: \(report.fields)")
        #expect(report.fields["small"] == "false", "the tape of a small document is advised: \(report.fields)")
        #expect(report.fields["freed"] == "false", "memory of a freed tape is still advised: \(report.fields)")
        #expect(report.fields["reused"] == "true", "the second large tape took fresh pages: \(report.fields)")
        #expect(report.fields["bounded"] == "true", "a reservation past the limit was kept: \(report.fields)")
        #expect(report.passed, "the documents did not read as written: \(report.fields)")
    }

    /// The arena of a document of 16 MiB or more takes its chunks past the first mebibyte as
    /// huge pages of their own: on a 2 MiB boundary, advised for huge pages, and given back with
    /// the document. A smaller document's arena takes every chunk from `malloc`, and so does a
    /// large one's where the system refuses the pages (an address-space limit), with the blocks
    /// handed out as before.
    ///
    /// Checked in a child process, so that the limit and the mappings are nobody else's.
    @Test(ChildTestProcess.available, .enabled(if: hugePagesCanBeChecked, "needs transparent huge pages in madvise mode and THPeligible in /proc/self/smaps"))
    func aLargeDocumentsArenaTakesHugePages() throws {
        let report = try ChildTestProcess.run(
            filter: #"JSONModelKitTests\.DocumentInputTests/arenaHugePageChild"#, workload: "arena-huge-pages", label: "arena huge pages child")
        guard let report else { return }
        #expect(report.fields["large"] == "true", "the arena of a large document took no huge page: \(report.fields)")
        #expect(report.fields["aligned"] == "true", "a huge page chunk is not on a 2 MiB boundary: \(report.fields)")
        #expect(report.fields["advised"] == "true", "a huge page chunk is not advised: \(report.fields)")
        #expect(report.fields["small"] == "false", "the arena of a small document took a huge page: \(report.fields)")
        #expect(report.fields["freed"] == "false", "a freed document's huge page chunk is still mapped and advised: \(report.fields)")
        #expect(report.fields["refused"] == "true", "under an address-space limit the arena did not fall back to malloc: \(report.fields)")
        #expect(report.passed, "the blocks were not written and read back: \(report.fields)")
    }

    /// The child of ``aLargeDocumentsArenaTakesHugePages()``.
    @Test(ChildTestProcess.child())
    func arenaHugePageChild() throws {
        guard ChildTestProcess.requestedWorkload == "arena-huge-pages" else { return }
        #if os(Linux)
        let hugePage = 2 << 20
        let blockWords = DocumentArena.largestBlock / 8
        /// Takes `bytes` of blocks from `arena`, writing each block's first and last words, and
        /// whether they all came and read back.
        func fill(_ arena: borrowing DocumentArena, bytes: Int) -> Bool {
            var blocks: [UnsafeMutablePointer<AtomicWord>] = []
            for _ in 0..<(bytes / DocumentArena.largestBlock) {
                guard let block = arena.allocate(words: blockWords) else { return false }
                block.initialize(to: AtomicWord(UInt(blocks.count)))
                (block + blockWords - 1).initialize(to: AtomicWord(UInt(blocks.count)))
                blocks.append(block)
            }
            return blocks.enumerated().allSatisfy { index, block in
                block.load(ordering: .relaxed) == UInt(index) && (block + blockWords - 1).load(ordering: .relaxed) == UInt(index)
            }
        }
        func document(bytes: Int) throws -> JSONDocument {
            try JSONDocument(string: "[" + String(repeating: "12345678,", count: bytes / 9 + 1) + "0]")
        }
        var passed = true
        var hugeChunks: [Int] = []
        var large = false, aligned = false, advised = false, small = true
        do {
            let largeDocument = try document(bytes: JSONDocument.hugePageTapeLimit)
            passed = fill(largeDocument.arena, bytes: 8 << 20) && passed
            hugeChunks = largeDocument.arena.chunks.filter { $0.capacity == DocumentArena.hugePageChunk }.map(\.address)
            large = !hugeChunks.isEmpty
            aligned = large && hugeChunks.allSatisfy { $0 % hugePage == 0 }
            advised = large && hugeChunks.allSatisfy { Self.hugePageEligible($0) == true }
            let smallDocument = try document(bytes: JSONDocument.hugePageTapeLimit / 2)
            passed = fill(smallDocument.arena, bytes: 8 << 20) && passed
            small = smallDocument.arena.chunks.contains { $0.capacity == DocumentArena.hugePageChunk }
        }
        let freed = hugeChunks.contains { Self.hugePageEligible($0) == true }
        // Room for the heap's chunks, not for a huge page's reservation (twice its size).
        var saved = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved) == 0)
        var limit = saved
        limit.rlim_cur = min(saved.rlim_max, rlim_t(ProcessMemory.status("VmSize") + (3 << 20)))
        try #require(setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0)
        let refused: Bool
        do {
            let arena = DocumentArena(budget: 64 << 20, hugePages: true)
            let filled = fill(arena, bytes: 3 << 19)
            let chunks = arena.chunks
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved)
            passed = filled && passed
            refused = filled && !chunks.contains { $0.capacity == DocumentArena.hugePageChunk }
                && chunks.contains { $0.capacity == 1 << 20 }
        }
        try ChildTestProcess.write([
            "large": large, "aligned": aligned, "advised": advised, "small": small, "freed": freed, "refused": refused,
            "passed": passed,
        ])
        #endif
    }

    /// The child of ``aLargeDocumentsTapeAsksForHugePages()``.
    @Test(ChildTestProcess.child())
    func hugePageChild() throws {
        guard ChildTestProcess.requestedWorkload == "huge-pages" else { return }
        let element = #"{"id": 1234567, "name": "abcdefgh", "tags": [true, null]},"#
        let hugePage = 2 << 20
        func tapeBase(_ document: JSONDocument) -> Int {
            document.tape.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress!) }
        }
        func document(bytes: Int) throws -> (JSONDocument, eligible: Bool?) {
            let count = bytes / element.utf8.count + 1
            let document = try JSONDocument(string: "[" + String(repeating: element, count: count) + "{}]")
            // The first 2 MiB boundary inside the tape's storage: the advice starts there.
            let aligned = (tapeBase(document) + hugePage - 1) & ~(hugePage - 1)
            return (document, Self.hugePageEligible(aligned))
        }
        var reads = true
        var freedTapes: [Int] = []
        var large = "unknown", small = "unknown", aligned = false, reused = false
        do {
            let (largeDocument, eligible) = try document(bytes: JSONDocument.hugePageTapeLimit)
            let (smallDocument, smallEligible) = try document(bytes: JSONDocument.hugePageTapeLimit / 2)
            reads = largeDocument.root.count == JSONDocument.hugePageTapeLimit / element.utf8.count + 2
                && largeDocument.root[0]?["name"]?.stringValue == "abcdefgh"
                && largeDocument.root[largeDocument.root.count - 2]?["tags"]?[1]?.isNull == true
                && smallDocument.root[0]?["id"]?.intValue == 1_234_567
            large = eligible.map(String.init) ?? "unknown"
            small = smallEligible.map(String.init) ?? "unknown"
            aligned = tapeBase(largeDocument) % hugePage == 0
            freedTapes.append(tapeBase(largeDocument))
        }
        // After the first large tape's memory is given back, `malloc` serves a request of its
        // size from its heap.
        do {
            let (again, _) = try document(bytes: JSONDocument.hugePageTapeLimit)
            reads = reads && again.root[0]?["id"]?.intValue == 1_234_567
            reused = tapeBase(again) == freedTapes[0]
            freedTapes.append(tapeBase(again))
        }
        // A reservation whose usable pages pass the limit is given back, not kept.
        var bounded = false
        if let big = DocumentPages.reserve(DocumentPages.keptLimit * 2, usable: DocumentPages.keptLimit + (64 << 10)) {
            DocumentPages.release(big)
            bounded = DocumentPages.keptRange?.lowerBound != Int(bitPattern: big.base)
        }
        let kept = DocumentPages.keptRange ?? 0..<0
        let advised = freedTapes.contains { address in
            let aligned = (address + hugePage - 1) & ~(hugePage - 1)
            return !kept.contains(aligned) && Self.hugePageEligible(aligned) == true
        }
        try ChildTestProcess.write([
            "large": large, "small": small, "aligned": aligned, "freed": advised, "reused": reused, "bounded": bounded,
            "passed": reads,
        ])
    }
}
