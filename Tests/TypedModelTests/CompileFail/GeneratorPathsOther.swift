private import Foundation
import JSONModelKit

// A file of the same target that imports Foundation privately, for its own use alone.

func stampText() -> String { Date(timeIntervalSince1970: 0).description }
