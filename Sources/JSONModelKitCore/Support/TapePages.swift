#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("TapePages needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Address space of its own for the tape of a large document, on Linux: reserved whole for the
/// densest input the document could be, made usable as the scan needs it, and given back to the
/// system, advice and all, when the document goes.
///
/// The scan writes a large tape front to back into memory nobody has touched, and with 4 KiB
/// pages a large part of such a parse is page faults; backed by transparent huge pages it takes
/// one fault per 2 MiB. The reservation starts on a 2 MiB boundary, so the whole tape can be
/// backed, and is advised for huge pages (`MADV_HUGEPAGE`). Advice on memory from `malloc`
/// would outlive the tape: the allocator hands the same memory to other allocations, which then
/// take 2 MiB for every page they touch. Here the advice goes with the mapping.
///
/// The tape grows in place, by making more of the reservation readable and writable, so its
/// pages never move; what the scan did not use is unmapped when it ends. Reserved address space
/// costs no memory; a system that refuses it (a limit on the address space, `ulimit -v`) gets
/// `nil`, and the tape comes from `malloc` as a smaller document's does. Other systems are never
/// asked.
///
/// PERF: the page faults of a large document's scan; see jsonmodel-bench --section bulk, row (a).
enum TapePages {
    /// The size of a transparent huge page on the platforms that have them.
    static var hugePage: Int { 2 << 20 }

    /// `bytes` rounded up to whole pages.
    static func pageRounded(_ bytes: Int) -> Int {
        (bytes + MappedFile.pageSize - 1) & ~(MappedFile.pageSize - 1)
    }

    /// Reserves `bytes` of address space (whole pages), aligned to a huge page and advised for
    /// them, of which the first `usable` bytes are readable and writable; nil where the system
    /// refuses, and on systems other than Linux.
    static func reserve(_ bytes: Int, usable: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        let size = pageRounded(bytes)
        let reservedSize = size + hugePage
        guard let reserved = mmap(nil, reservedSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            reserved != MAP_FAILED
        else { return nil }
        let reservedStart = Int(bitPattern: reserved)
        let start = (reservedStart + hugePage - 1) & ~(hugePage - 1)
        // What lies before the boundary and after the size.
        if start > reservedStart { munmap(reserved, start - reservedStart) }
        if reservedStart + reservedSize > start + size {
            munmap(UnsafeMutableRawPointer(bitPattern: start + size), reservedStart + reservedSize - start - size)
        }
        let base = UnsafeMutableRawPointer(bitPattern: start)!
        _ = madvise(base, size, Int32(MADV_HUGEPAGE))
        guard extend(base, from: 0, to: usable) else {
            munmap(base, size)
            return nil
        }
        return base
        #else
        return nil
        #endif
    }

    /// Makes the reserved bytes from `usable` to `newUsable` at `base` readable and writable;
    /// false when the system refuses (the reservation is left as it was).
    static func extend(_ base: UnsafeMutableRawPointer, from usable: Int, to newUsable: Int) -> Bool {
        let start = pageRounded(usable)
        let end = pageRounded(newUsable)
        guard end > start else { return true }
        #if os(Linux)
        return mprotect(base + start, end - start, PROT_READ | PROT_WRITE) == 0
        #else
        return false  // never reserved here
        #endif
    }

    /// Gives `bytes` at `base` back to the system (whole pages).
    static func release(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        let size = pageRounded(bytes)
        if size > 0 { munmap(base, size) }
        #endif
    }
}
