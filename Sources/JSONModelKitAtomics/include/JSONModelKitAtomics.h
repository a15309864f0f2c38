// Atomic operations on one machine word, for JSONModelKitCore's `AtomicWord`.
//
// The standard library's `Atomic` needs macOS 15, iOS 18, tvOS 18 and visionOS 2. These are
// the same operations on plain words, through the builtins Clang and GCC implement C11's
// <stdatomic.h> with, so Swift can allocate the words where it likes. Each function is
// `static inline`: Swift compiles it into the caller, where the ordering argument, always a
// constant, selects one instruction sequence.
#ifndef JSONMODELKIT_ATOMICS_H
#define JSONMODELKIT_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

/// The memory orderings the Swift side names, as the builtins take them.
enum {
    jmk_relaxed = __ATOMIC_RELAXED,
    jmk_acquire = __ATOMIC_ACQUIRE,
    jmk_release = __ATOMIC_RELEASE,
    jmk_acquire_release = __ATOMIC_ACQ_REL,
};

static inline __attribute__((always_inline)) uintptr_t jmk_atomic_load(const uintptr_t *word, int order) {
    return __atomic_load_n(word, order);
}

static inline __attribute__((always_inline)) void jmk_atomic_store(uintptr_t *word, uintptr_t value, int order) {
    __atomic_store_n(word, value, order);
}

static inline __attribute__((always_inline)) uintptr_t jmk_atomic_exchange(uintptr_t *word, uintptr_t value, int order) {
    return __atomic_exchange_n(word, value, order);
}

static inline __attribute__((always_inline)) uintptr_t jmk_atomic_fetch_add(uintptr_t *word, uintptr_t value, int order) {
    return __atomic_fetch_add(word, value, order);
}

/// Stores `desired` if the word holds `*expected`; otherwise writes what it holds to `*expected`.
static inline __attribute__((always_inline)) bool jmk_atomic_compare_exchange(
    uintptr_t *word, uintptr_t *expected, uintptr_t desired, int success, int failure) {
    return __atomic_compare_exchange_n(word, expected, desired, false, success, failure);
}

#endif
