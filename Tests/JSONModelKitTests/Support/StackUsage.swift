import Foundation
@testable import JSONModelKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("StackUsage needs the C library: no Glibc or Darwin module here")
#endif

/// Runs `body` on a new thread with a painted stack of `stackSize` bytes and returns its
/// result with the most stack the thread used, in bytes.
///
/// The stack is filled with a pattern before the thread starts; afterwards the lowest byte that
/// changed marks the deepest point reached. Whatever runs before `body` (thread start-up, on
/// glibc the thread's TLS at the top of the stack) is counted too: a few KiB, the same for every
/// call, so compare measurements against ``baselineStackUsage``. A guard page below the stack
/// turns an overflow into a crash rather than silent corruption; callers choose a size that
/// holds what they measure.
func measuringStackUsage<T: Sendable>(
    stackSize: Int = 16 << 20, _ body: @escaping @Sendable () -> T
) -> (value: T, bytes: Int) {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let size = (stackSize + page - 1) / page * page
    let total = size + page
    guard let mapping = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        mapping != MAP_FAILED
    else { fatalError("mmap failed") }
    defer { munmap(mapping, total) }
    mprotect(mapping, page, PROT_NONE)  // the guard page, below the stack
    let stack = mapping + page
    let pattern: UInt8 = 0xA5
    memset(stack, Int32(pattern), size)

    let result = Locked<T?>(nil)
    let context = StackThreadContext { result.withLock { $0 = body() } }
    let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
    pthread_attr_init(attributes)
    defer {
        pthread_attr_destroy(attributes)
        attributes.deallocate()
    }
    pthread_attr_setstack(attributes, stack, size)
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t? = nil
    #endif
    let unmanaged = Unmanaged.passRetained(context)
    let status = pthread_create(&thread, attributes, { argument in
        Unmanaged<StackThreadContext>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, unmanaged.toOpaque())
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
    pthread_join(thread, nil)
    #else
    pthread_join(thread!, nil)
    #endif
    let bytes = stack.assumingMemoryBound(to: UInt8.self)
    var lowest = 0
    while lowest < size && bytes[lowest] == pattern { lowest += 1 }
    return (result.withLock { $0! }, size - lowest)
}

/// What a thread of ``measuringStackUsage(stackSize:_:)`` runs.
private final class StackThreadContext: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The stack a thread of ``measuringStackUsage(stackSize:_:)`` uses for an empty body.
let baselineStackUsage: Int = measuringStackUsage { 0 }.bytes

/// The stack `body` used beyond an empty thread's, in bytes.
func stackBytesUsed<T: Sendable>(_ body: @escaping @Sendable () -> T) -> (value: T, bytes: Int) {
    let (value, bytes) = measuringStackUsage(body)
    return (value, max(0, bytes - baselineStackUsage))
}
