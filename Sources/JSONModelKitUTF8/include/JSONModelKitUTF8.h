// Checking the UTF-8 text of a JSON string 32 bytes at a time, with AVX2 where the processor has
// it: for JSONModelKitCore's scanner, whose own check, in Swift, takes 16 bytes at a time with
// SSE2, the most of the instruction set every x86-64 processor has. Swift cannot compile one
// function for a wider instruction set than the rest of the program; C can, and the processor is
// asked once whether it has one.
//
// Every function is `static inline`, compiled into the Swift code that calls it, as the atomic
// words' header is: a C file with code of its own gets DWARF 5 debug information from the
// toolchain's Clang, which valgrind before 3.20 cannot read, and `valgrind --tool=callgrind` is
// how the library's instruction counts are taken.
#ifndef JSONMODELKIT_UTF8_H
#define JSONMODELKIT_UTF8_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// Whether a pair of bytes (a byte and the one before it) is ill-formed is read from three
// tables of flags, one per nibble: the earlier byte's high and low nibbles and the later byte's
// high nibble. A flag is a kind of error, set in each table where that nibble can take part in
// it; a pair is in error where a flag is set in all three. A continuation byte due two or three
// bytes after a lead (of three or four bytes) is checked apart, against the flag that marks two
// continuation bytes in a row.
enum {
    // A lead byte not followed by a continuation byte, or a continuation byte where none is due
    // after a lead.
    JMK_TOO_SHORT = 1 << 0,
    // A continuation byte after ASCII.
    JMK_TOO_LONG = 1 << 1,
    // E0 followed by 80–9F: a character of three bytes that fits in two.
    JMK_OVERLONG_3 = 1 << 2,
    // F4 followed by 90–BF, or F5–FF: above U+10FFFF.
    JMK_TOO_LARGE = 1 << 3,
    // ED followed by A0–BF: a surrogate.
    JMK_SURROGATE = 1 << 4,
    // C0 or C1: a character of two bytes that fits in one.
    JMK_OVERLONG_2 = 1 << 5,
    // F5–FF followed by 80–8F (above U+10FFFF), or F0 followed by 80–8F (a character of four
    // bytes that fits in three): one flag, as the earlier byte's low nibble tells the two apart.
    JMK_TOO_LARGE_1000 = 1 << 6,
    JMK_OVERLONG_4 = 1 << 6,
    // Two continuation bytes in a row: an error unless a lead of three or four bytes makes the
    // second one due.
    JMK_TWO_CONTS = 1 << 7,
    // The flags every low nibble of the earlier byte can take part in.
    JMK_CARRY = JMK_TOO_SHORT | JMK_TOO_LONG | JMK_TWO_CONTS,
};

// A table of 16 flags in both 128-bit lanes: `vpshufb` looks up each lane's bytes in its own.
#define JMK_TABLE(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
    _mm256_setr_epi8((char)(a), (char)(b), (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h), \
        (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n), (char)(o), (char)(p), \
        (char)(a), (char)(b), (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h), \
        (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n), (char)(o), (char)(p))

/// The check itself, compiled for AVX2; see jmk_skip_valid_utf8.
static inline __attribute__((target("avx2"))) const uint8_t *_Nonnull jmk_skipWithAVX2(
    const uint8_t *_Nonnull q, const uint8_t *_Nonnull end, bool *_Nonnull stopped) {
    const __m256i earlierHigh = JMK_TABLE(
        JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG, JMK_TOO_LONG,
        JMK_TWO_CONTS, JMK_TWO_CONTS, JMK_TWO_CONTS, JMK_TWO_CONTS,
        JMK_TOO_SHORT | JMK_OVERLONG_2,
        JMK_TOO_SHORT,
        JMK_TOO_SHORT | JMK_OVERLONG_3 | JMK_SURROGATE,
        JMK_TOO_SHORT | JMK_TOO_LARGE | JMK_TOO_LARGE_1000 | JMK_OVERLONG_4);
    const __m256i earlierLow = JMK_TABLE(
        JMK_CARRY | JMK_OVERLONG_3 | JMK_OVERLONG_2 | JMK_OVERLONG_4,
        JMK_CARRY | JMK_OVERLONG_2,
        JMK_CARRY,
        JMK_CARRY,
        JMK_CARRY | JMK_TOO_LARGE,
        JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000,
        JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000,
        JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000,
        JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000 | JMK_SURROGATE,
        JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000, JMK_CARRY | JMK_TOO_LARGE | JMK_TOO_LARGE_1000);
    const __m256i laterHigh = JMK_TABLE(
        JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT,
        JMK_TOO_LONG | JMK_OVERLONG_2 | JMK_TWO_CONTS | JMK_OVERLONG_3 | JMK_TOO_LARGE_1000 | JMK_OVERLONG_4,
        JMK_TOO_LONG | JMK_OVERLONG_2 | JMK_TWO_CONTS | JMK_OVERLONG_3 | JMK_TOO_LARGE,
        JMK_TOO_LONG | JMK_OVERLONG_2 | JMK_TWO_CONTS | JMK_SURROGATE | JMK_TOO_LARGE,
        JMK_TOO_LONG | JMK_OVERLONG_2 | JMK_TWO_CONTS | JMK_SURROGATE | JMK_TOO_LARGE,
        JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT, JMK_TOO_SHORT);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i zero = _mm256_setzero_si256();
    while (end - q >= 32) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)q);
        __m256i before1 = _mm256_loadu_si256((const __m256i *)(q - 1));
        __m256i before2 = _mm256_loadu_si256((const __m256i *)(q - 2));
        __m256i before3 = _mm256_loadu_si256((const __m256i *)(q - 3));
        __m256i pairs = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(earlierHigh, _mm256_and_si256(_mm256_srli_epi16(before1, 4), nibble)),
                _mm256_shuffle_epi8(earlierLow, _mm256_and_si256(before1, nibble))),
            _mm256_shuffle_epi8(laterHigh, _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble)));
        // 0x80 where a lead of three bytes lies two back or one of four three back.
        __m256i due = _mm256_and_si256(
            _mm256_or_si256(
                _mm256_subs_epu8(before2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
                _mm256_subs_epu8(before3, _mm256_set1_epi8((char)(0xF0 - 0x80)))),
            _mm256_set1_epi8((char)0x80));
        uint32_t errors = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_xor_si256(pairs, due), zero));
        __m256i control = _mm256_cmpeq_epi8(_mm256_max_epu8(bytes, _mm256_set1_epi8(0x1F)), _mm256_set1_epi8(0x1F));
        uint32_t stops = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('\\'))),
            control));
        if ((errors | stops) == 0) {
            q += 32;
            continue;
        }
        if (stops != 0) {
            unsigned stop = (unsigned)__builtin_ctz(stops);
            uint32_t upToStop = stop == 31 ? UINT32_MAX : (2u << stop) - 1;
            if ((errors & upToStop) == 0) {
                *stopped = true;
                return q + stop;
            }
        }
        return q;
    }
    return q;
}

/// 0 before the processor is asked, then 1 without AVX2 and 2 with it. Threads that ask at once
/// write the same answer.
static inline int *_Nonnull jmk_avx2State(void) {
    static int state;
    return &state;
}

static inline int jmk_askForAVX2(void) {
    unsigned eax, ebx, ecx, edx;
    int state = 1;
    // AVX (bit 28) and XSAVE enabled by the system (bit 27), the system saving the vector
    // registers (bits 1 and 2 of XCR0), and AVX2 (leaf 7, bit 5 of EBX).
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 27)) && (ecx & (1u << 28))) {
        unsigned low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6) == 6 && __get_cpuid_max(0, 0) >= 7) {
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if (ebx & (1u << 5)) state = 2;
        }
    }
    __atomic_store_n(jmk_avx2State(), state, __ATOMIC_RELAXED);
    return state;
}

/// Steps over blocks of 32 bytes from `q` that hold well-formed UTF-8 and no `"`, `\` or control
/// character, while 32 bytes are left before `end`; at least three readable bytes lie before `q`,
/// which each block's first bytes are judged with.
///
/// Stops at the first `"`, `\` or control character when no byte up to it is ill-formed, and sets
/// `*stopped`; otherwise returns the start of the block that holds such a byte or an error, or
/// where fewer than 32 bytes are left, leaving `*stopped` alone. A block ends where it ends, not
/// where a character does: an ill-formed sequence whose lead byte ends a block is found by the
/// next block's look back, up to three bytes before its start. On processors without AVX2, and
/// other than x86-64, returns `q` at once.
static inline const uint8_t *_Nonnull jmk_skip_valid_utf8(
    const uint8_t *_Nonnull q, const uint8_t *_Nonnull end, bool *_Nonnull stopped) {
    int state = __atomic_load_n(jmk_avx2State(), __ATOMIC_RELAXED);
    if (state == 0) state = jmk_askForAVX2();
    return state == 2 ? jmk_skipWithAVX2(q, end, stopped) : q;
}

#else

/// The same without AVX2, on other processors than x86-64: returns `q` at once.
static inline const uint8_t *_Nonnull jmk_skip_valid_utf8(
    const uint8_t *_Nonnull q, const uint8_t *_Nonnull end, bool *_Nonnull stopped) {
    (void)end;
    (void)stopped;
    return q;
}

#endif

#endif
