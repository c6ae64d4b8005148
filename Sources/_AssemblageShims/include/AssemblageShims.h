// Internal to Assemblage: C11 atomics on pointer-sized words, epoch-based read sections and a per-thread slot.
// Swift cannot yet use the Synchronization module on the deployment floor (iOS 13 / macOS 10.15),
// so the lock-free read path uses these functions. Nothing here is public API.
#ifndef ASSEMBLAGE_SHIMS_H
#define ASSEMBLAGE_SHIMS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Loads a pointer-sized word with acquire ordering. `word` must be 8-byte aligned.
static inline void *_Nullable _asm_load_acquire(void *_Nonnull word) {
    return atomic_load_explicit((_Atomic(void *) *)word, memory_order_acquire);
}

/// Stores a pointer-sized word with release ordering.
static inline void _asm_store_release(void *_Nonnull word, void *_Nullable value) {
    atomic_store_explicit((_Atomic(void *) *)word, value, memory_order_release);
}

/// Exchanges a pointer-sized word (sequentially consistent) and returns the previous value.
static inline void *_Nullable _asm_exchange(void *_Nonnull word, void *_Nullable value) {
    return atomic_exchange_explicit((_Atomic(void *) *)word, value, memory_order_seq_cst);
}

/// Stores `desired` in a pointer-sized word if it still holds `expected` (sequentially consistent; acquire when it
/// does not); returns whether it did.
static inline bool _asm_compare_exchange(void *_Nonnull word, void *_Nullable expected, void *_Nullable desired) {
    return atomic_compare_exchange_strong_explicit(
        (_Atomic(void *) *)word, &expected, desired, memory_order_seq_cst, memory_order_acquire);
}

/// Loads a 32-bit word with acquire ordering. `word` must be 4-byte aligned.
static inline uint32_t _asm_load_acquire_u32(void *_Nonnull word) {
    return atomic_load_explicit((_Atomic(uint32_t) *)word, memory_order_acquire);
}

/// Stores a 32-bit word with release ordering.
static inline void _asm_store_release_u32(void *_Nonnull word, uint32_t value) {
    atomic_store_explicit((_Atomic(uint32_t) *)word, value, memory_order_release);
}

/// Adds to a 64-bit counter (relaxed) and returns the new value.
static inline uint64_t _asm_increment_u64(void *_Nonnull word) {
    return atomic_fetch_add_explicit((_Atomic(uint64_t) *)word, 1, memory_order_relaxed) + 1;
}

// MARK: Word locks (a scope's lock)

/// A lock in one 32-bit word, for critical sections of a few dozen instructions: uncontended, taking and releasing
/// it is one atomic operation each (a `pthread_mutex_t` costs a call and more work each way). `word`
/// starts at 0 and must be 4-byte aligned. On Apple platforms the word is an `os_unfair_lock`; on Linux it is
/// 0 (free), 1 (held) or 2 (held, with threads asleep on the futex).
#if defined(__APPLE__)
#include <os/lock.h>
static inline void _asm_word_lock(void *_Nonnull word) { os_unfair_lock_lock((os_unfair_lock_t)word); }
static inline void _asm_word_unlock(void *_Nonnull word) { os_unfair_lock_unlock((os_unfair_lock_t)word); }
#else
/// The contended halves (shims.c): spin briefly, then sleep; wake one sleeper.
void _asm_word_lock_contended(void *_Nonnull word);
void _asm_word_unlock_contended(void *_Nonnull word);

static inline void _asm_word_lock(void *_Nonnull word) {
    uint32_t expected = 0;
    if (!atomic_compare_exchange_strong_explicit((_Atomic(uint32_t) *)word, &expected, 1, memory_order_acquire,
                                                 memory_order_relaxed)) {
        _asm_word_lock_contended(word);
    }
}

static inline void _asm_word_unlock(void *_Nonnull word) {
    if (atomic_exchange_explicit((_Atomic(uint32_t) *)word, 0, memory_order_release) == 2) {
        _asm_word_unlock_contended(word);
    }
}
#endif

// MARK: Read sections (epoch-based reclamation)

/// The calling thread's resolution state and its section word (defined in shims.c; read through the
/// functions below, which inline into the resolve path).
extern _Thread_local void *_Nullable _asm_tls_state;
extern _Thread_local void *_Nullable _asm_tls_section;

/// The calling thread's resolution state, or NULL.
static inline void *_Nullable _asm_thread_state(void) { return _asm_tls_state; }

/// The calling thread's section block (a 64-bit atomic section word, then a pointer-sized hazard word), or
/// NULL before the thread's state exists.
static inline void *_Nullable _asm_thread_section(void) { return _asm_tls_section; }

/// The process's reclamation epoch: starts at 1 and only grows (advanced by the reclaimer under its lock).
extern _Atomic(uint64_t) _asm_epoch;

/// Whether retired objects wait to be freed: a hint that lets a section's end skip the reclaimer.
extern _Atomic(uintptr_t) _asm_reclaim_pending;

/// 1 when a section is announced with a relaxed store and a compiler fence, and the reclaimer makes the
/// announcement visible with an asymmetric fence (Linux `membarrier`, registered when the library loads,
/// before any thread resolves); 0 where that is unavailable, and the announcement is sequentially consistent.
/// Written once, before `main`.
extern int _asm_light_fences;

/// Starts a read section on the calling thread: until the matching `_asm_section_end`, nothing the
/// reclaimer is handed after this call is freed, so the caller may use unretained pointers that it loads
/// from registration tables, entries and instance slots.
///
/// `word` is the thread's section word. Sections nest: when the thread is already in one, this does nothing
/// and returns 0; otherwise it announces the epoch it read and returns it, for `_asm_section_end`.
static inline uint64_t _asm_section_begin(void *_Nonnull word) {
    _Atomic(uint64_t) *section = (_Atomic(uint64_t) *)word;
    if (atomic_load_explicit(section, memory_order_relaxed) != 0) return 0;
    uint64_t epoch = atomic_load_explicit(&_asm_epoch, memory_order_relaxed);
    if (__builtin_expect(_asm_light_fences != 0, 1)) {
        atomic_store_explicit(section, epoch, memory_order_relaxed);
        // Orders the announcement before the section's loads in the compiler; the reclaimer's membarrier
        // orders it in the processor.
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_store_explicit(section, epoch, memory_order_seq_cst);
    }
    return epoch;
}

/// Ends the section that `_asm_section_begin` started and returned `epoch` for (0: a nested call, nothing
/// to do).
///
/// Deliberately not inline: an opaque call, which the compiler must assume may release any object, so a
/// reference copied out of the section is retained before the section ends. When objects wait to be freed
/// and the epoch moved on during the section, it calls `_asm_reclaim_hook` (outside any section).
void _asm_section_end(void *_Nonnull word, uint64_t epoch);

/// Sets the reclaimer's entry point (once, before the library's first retirement).
void _asm_set_reclaim_hook(void (*_Nonnull hook)(void));

/// The reclaimer's side of a section announcement: after it returns true, every announcement a reader made
/// before loading the pointers it uses is visible to the caller. Returns false when the fence could not be
/// made; the caller must then free nothing on the strength of what it reads.
bool _asm_heavy_barrier(void);

/// Loads a section word (the reclaimer's scan, after `_asm_heavy_barrier`).
static inline uint64_t _asm_load_section(void *_Nonnull word) {
    return atomic_load_explicit((_Atomic(uint64_t) *)word, memory_order_seq_cst);
}

/// The current epoch.
static inline uint64_t _asm_current_epoch(void) {
    return atomic_load_explicit(&_asm_epoch, memory_order_seq_cst);
}

/// Advances the epoch (the reclaimer, under its lock) and returns the new value.
static inline uint64_t _asm_advance_epoch(void) {
    return atomic_fetch_add_explicit(&_asm_epoch, 1, memory_order_seq_cst) + 1;
}

/// Sets the pending hint.
static inline void _asm_set_reclaim_pending(bool pending) {
    atomic_store_explicit(&_asm_reclaim_pending, pending ? 1 : 0, memory_order_seq_cst);
}

// MARK: Hazard words (shared-instance boxes)

/// The calling thread's hazard word: the second word of its section block. Only valid inside a section
/// (which creates the thread's state).
static inline void *_Nonnull _asm_thread_hazard(void) { return (char *)_asm_tls_section + 8; }

/// Publishes `box` in a hazard word before the caller re-checks the slot it loaded `box` from: a relaxed
/// store and a compiler fence where the reclaimer fences for readers (`_asm_heavy_barrier`), otherwise a
/// sequentially consistent store.
static inline void _asm_publish_hazard(void *_Nonnull word, void *_Nullable box) {
    if (__builtin_expect(_asm_light_fences != 0, 1)) {
        atomic_store_explicit((_Atomic(void *) *)word, box, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_store_explicit((_Atomic(void *) *)word, box, memory_order_seq_cst);
    }
}

/// Loads a pointer-sized word with sequential consistency (the re-check of a slot after publishing a hazard).
static inline void *_Nullable _asm_load_seqcst(void *_Nonnull word) {
    return atomic_load_explicit((_Atomic(void *) *)word, memory_order_seq_cst);
}

/// Clears a hazard word. Deliberately not inline: an opaque call, so the instance copied out of the box is
/// retained before the box stops being protected. When boxes wait to be freed, it calls the box hook.
void _asm_clear_hazard(void *_Nonnull word);

/// Whether retired boxes wait because a hazard named them.
extern _Atomic(uintptr_t) _asm_boxes_pending;

/// Sets the box hint.
static inline void _asm_set_boxes_pending(bool pending) {
    atomic_store_explicit(&_asm_boxes_pending, pending ? 1 : 0, memory_order_seq_cst);
}

/// Sets the entry point that frees waiting boxes (once, before the library's first retirement).
void _asm_set_box_hook(void (*_Nonnull hook)(void));

// MARK: Process flags and thread state

/// Bit 0: set once the process registers its first decorator (until then the resolve path skips decorators).
/// Bit 1: set while a creation hook (the startup profiler) is installed. Either sends every factory call to the
/// out-of-line construction path, so that one relaxed load decides for both.
extern _Atomic(uintptr_t) _asm_decorators_flag;

/// Whether any decorator was ever registered in the process (a relaxed load).
static inline bool _asm_any_decorators(void) {
    return (atomic_load_explicit(&_asm_decorators_flag, memory_order_relaxed) & 1) != 0;
}

/// Records that a decorator was registered.
static inline void _asm_mark_decorators(void) {
    atomic_fetch_or_explicit(&_asm_decorators_flag, 1, memory_order_release);
}

/// Whether a factory call takes the out-of-line construction path: decorators exist, or a creation hook is
/// installed (a relaxed load).
static inline bool _asm_construction_is_observed(void) {
    return atomic_load_explicit(&_asm_decorators_flag, memory_order_relaxed) != 0;
}

/// Whether a creation hook is installed (a relaxed load).
static inline bool _asm_creation_hook_installed(void) {
    return (atomic_load_explicit(&_asm_decorators_flag, memory_order_relaxed) & 2) != 0;
}

/// Records whether a creation hook is installed.
static inline void _asm_set_creation_hook_installed(bool installed) {
    if (installed) {
        atomic_fetch_or_explicit(&_asm_decorators_flag, 2, memory_order_release);
    } else {
        atomic_fetch_and_explicit(&_asm_decorators_flag, ~(uintptr_t)2, memory_order_release);
    }
}

/// Sets the calling thread's resolution state and section word.
/// `destructor` runs with the state when the thread exits.
void _asm_set_thread_state(void *_Nullable value, void *_Nullable section, void (*_Nonnull destructor)(void *_Nonnull));

/// The address below which the calling thread's stack is "low" (half of a stack of up to 256 KiB, a quarter
/// of a larger one, at most 128 KiB, above its lowest address); 1 when the bounds cannot be read, 0 until
/// computed.
extern _Thread_local uintptr_t _asm_stack_limit;

/// Computes and caches `_asm_stack_limit` for the calling thread.
uintptr_t _asm_compute_stack_limit(void);

/// Whether the calling thread has less than its safety margin of stack left. Inline: a thread-local load
/// and a comparison, cheap enough to run before every factory.
static inline bool _asm_stack_is_low(void) {
    uintptr_t limit = _asm_stack_limit;
    if (__builtin_expect(limit == 0, 0)) limit = _asm_compute_stack_limit();
    return (uintptr_t)__builtin_frame_address(0) < limit;
}

/// Whether the calling thread is the process's main thread.
bool _asm_is_main_thread(void);

/// The identity of the thread the calling code runs for: its own, or, on a thread started by
/// `_asm_continue_on_new_thread`, that of the thread it continues for. Compare, never dereference.
const void *_Nonnull _asm_logical_thread(void);

/// Runs `body(context)` on a new thread with a stack of `stack_size` bytes, while the calling thread waits.
/// The new thread continues for the caller: it uses the caller's resolution state, section word and logical
/// identity. Returns 0 when the body ran, an error number when the thread could not be started.
int _asm_continue_on_new_thread(size_t stack_size, void (*_Nonnull body)(void *_Nullable),
                                void *_Nullable context);

#endif
