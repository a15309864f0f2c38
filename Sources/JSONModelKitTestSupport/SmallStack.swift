import Foundation
import JSONModelKitCore

/// Runs `body` on a new thread with a small stack and returns its result.
///
/// Proves that code does not recurse per nesting level: a recursive parser overflows
/// a 512 KiB stack long before a million levels.
package func onSmallStackThread<T: Sendable>(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.withLock { $0! }
}
