#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("DocumentPages needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Memory pages of their own for large documents, on Linux, and the size of a page.
///
/// Three users: the tape of a large document (``reserve(_:usable:)`` and what follows), the
/// chunks of its arena (``mapHugePage()``, see ``DocumentArena``), and a mapped file placed off
/// a huge page's boundary (``reserveAddressSpace(_:alignment:offset:)``, see `MappedFile`).
///
/// A large document's tape has address space of its own: reserved whole for the densest input
/// the document could be, made usable as the scan needs it, and given back to the system, advice
/// and all, when the document goes.
///
/// The scan writes a large tape front to back into memory nobody has touched, and with 4 KiB
/// pages a large part of such a parse is page faults; backed by transparent huge pages it takes
/// one fault per 2 MiB. The reservation starts on a 2 MiB boundary, so the whole tape can be
/// backed, and is advised for huge pages (`MADV_HUGEPAGE`). Advice on memory from `malloc`
/// would outlive the tape: the allocator hands the same memory to other allocations, which then
/// take 2 MiB for every page they touch. Here the advice goes with the mapping.
///
/// The tape grows in place, by making more of the reservation readable and writable, so its
/// pages never move. Reserved address space costs no memory; a system that refuses it (a limit
/// on the address space, `ulimit -v`) gets `nil`, and the tape comes from `malloc` as a smaller
/// document's does. Other systems are never asked.
///
/// The reservation of the last tape freed is kept for the next large tape, when the pages it
/// made usable are at most ``keptLimit``: as `malloc` keeps a freed block for the next request,
/// so that a program reading large documents one after another writes each tape into pages it
/// has, not into fresh ones the kernel must fault in and zero (a scan of the benchmark's 20 MB
/// of records took 8% longer so). One reservation at most is kept, so what stays after the
/// documents are gone is bounded, as glibc bounds what its heap keeps.
///
/// PERF: the page faults of a large document's scan; see jsonmodel-bench --section bulk, row (a),
/// and Tools/simdjson-compare (the parse rows).
enum DocumentPages {
    /// The size of a transparent huge page on the platforms that have them.
    static var hugePage: Int { 2 << 20 }

    /// The size of a memory page.
    static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)

    /// `bytes` rounded up to whole pages.
    static func pageRounded(_ bytes: Int) -> Int {
        (bytes + pageSize - 1) & ~(pageSize - 1)
    }

    /// A reservation of whole pages: its address, its size, and how much of it, from its start,
    /// is readable and writable.
    struct Reservation: @unchecked Sendable {
        // @unchecked Sendable: an address; the reservation has one owner at a time.
        let base: UnsafeMutableRawPointer
        let bytes: Int
        var usable: Int
    }

    /// The most usable bytes a freed reservation may have to be kept: pages a tape wrote stay in
    /// memory while it is kept. Twice glibc's largest dynamic `mmap` threshold, the most its
    /// heap keeps by default.
    static var keptLimit: Int { 64 << 20 }

    /// The reservation kept for the next tape, or nil.
    private static let kept = Locked<Reservation?>(nil)

    /// The address range of the reservation kept, for tests.
    static var keptRange: Range<Int>? {
        kept.withLock { $0.map { Int(bitPattern: $0.base)..<(Int(bitPattern: $0.base) + $0.bytes) } }
    }

    /// A reservation of at least `bytes` (whole pages), aligned to a huge page and advised for
    /// them, of which at least the first `usable` bytes are readable and writable: the one kept,
    /// when it is large enough, else a new one; nil where the system refuses, and on systems
    /// other than Linux.
    static func reserve(_ bytes: Int, usable: Int) -> Reservation? {
        #if os(Linux)
        if var reservation = kept.withLock({ found -> Reservation? in
            guard let candidate = found, candidate.bytes >= pageRounded(bytes) else { return nil }
            found = nil
            return candidate
        }) {
            if reservation.usable < pageRounded(usable) {
                guard extend(reservation.base, from: reservation.usable, to: usable) else {
                    munmap(reservation.base, reservation.bytes)
                    return nil
                }
                reservation.usable = pageRounded(usable)
            }
            return reservation
        }
        return newReservation(bytes, usable: usable)
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// A new reservation of `bytes` (whole pages) on a huge page's boundary, advised for huge
    /// pages, its first `usable` bytes readable and writable; nil where the system refuses.
    private static func newReservation(_ bytes: Int, usable: Int) -> Reservation? {
        let size = pageRounded(bytes)
        guard let base = reserveAddressSpace(size, alignment: hugePage) else { return nil }
        _ = madvise(base, size, Int32(MADV_HUGEPAGE))
        guard extend(base, from: 0, to: usable) else {
            munmap(base, size)
            return nil
        }
        return Reservation(base: base, bytes: size, usable: pageRounded(usable))
    }
    #endif

    /// One huge page of memory of its own, readable and writable, aligned to a huge page and
    /// advised for one: for the chunks of a large document's arena, which like its tape are
    /// written into memory nobody touched (``DocumentArena``). Nil where the system refuses, and
    /// on systems other than Linux.
    static func mapHugePage() -> UnsafeMutableRawPointer? {
        #if os(Linux)
        return newReservation(hugePage, usable: hugePage)?.base
        #else
        return nil
        #endif
    }

    /// Gives back a page from ``mapHugePage()``.
    static func unmapHugePage(_ base: UnsafeMutableRawPointer) {
        #if os(Linux)
        munmap(base, hugePage)
        #endif
    }

    #if os(Linux)
    /// Reserves `size` bytes of address space (whole pages, neither readable nor writable)
    /// starting `offset` bytes past a multiple of `alignment`; nil when the system refuses.
    /// A reservation `alignment` larger is made, and what lies outside the range unmapped.
    static func reserveAddressSpace(_ size: Int, alignment: Int, offset: Int = 0) -> UnsafeMutableRawPointer? {
        let reservedSize = size + alignment + offset
        guard let reserved = mmap(nil, reservedSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            reserved != MAP_FAILED
        else { return nil }
        let reservedStart = Int(bitPattern: reserved)
        let start = ((reservedStart + alignment - 1) & ~(alignment - 1)) + offset
        let end = start + pageRounded(size)
        if start > reservedStart { munmap(reserved, start - reservedStart) }
        if reservedStart + reservedSize > end {
            munmap(UnsafeMutableRawPointer(bitPattern: end), reservedStart + reservedSize - end)
        }
        return UnsafeMutableRawPointer(bitPattern: start)
    }
    #endif

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

    /// Keeps `reservation` for the next tape, giving back the one kept before, or gives it back
    /// to the system when its usable pages are more than ``keptLimit``.
    static func release(_ reservation: Reservation) {
        #if os(Linux)
        var given = reservation
        if reservation.usable <= keptLimit {
            guard let previous = kept.withLock({ slot in
                defer { slot = reservation }
                return slot
            }) else { return }
            given = previous
        }
        munmap(given.base, given.bytes)
        #endif
    }
}
