// Internal to Assemblage: C11 atomics on pointer-sized words and a per-thread slot.
// Swift cannot yet use the Synchronization module on the deployment floor (iOS 13 / macOS 10.15),
// so the lock-free read path uses these inline functions. Nothing here is public API.
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

/// Loads a pointer-sized word with sequential consistency.
static inline void *_Nullable _asm_load_seqcst(void *_Nonnull word) {
    return atomic_load_explicit((_Atomic(void *) *)word, memory_order_seq_cst);
}

/// Adds to a 64-bit counter (relaxed) and returns the new value.
static inline uint64_t _asm_increment_u64(void *_Nonnull word) {
    return atomic_fetch_add_explicit((_Atomic(uint64_t) *)word, 1, memory_order_relaxed) + 1;
}

/// The calling thread's resolution state and hazard word (defined in shims.c; read through the functions
/// below, which inline into the resolve path).
extern _Thread_local void *_Nullable _asm_tls_state;
extern _Thread_local void *_Nullable _asm_tls_hazard;

/// The calling thread's resolution state, or NULL.
static inline void *_Nullable _asm_thread_state(void) { return _asm_tls_state; }

/// The calling thread's hazard word (a pointer-sized atomic word), or NULL before the state exists.
static inline void *_Nullable _asm_thread_hazard(void) { return _asm_tls_hazard; }

/// 1 when hazard words are published with a plain store and the reclaimer makes them visible with an
/// asymmetric fence (Linux `membarrier`, registered when the library loads, before any thread resolves);
/// 0 where that is unavailable, and hazards are published with a sequentially consistent store.
/// Written once, before `main`.
extern int _asm_light_hazards;

/// Publishes `value` in a hazard word, ordered before the caller's next load of the slot it guards: with a
/// plain store and a compiler fence when the reclaimer fences for the readers (`_asm_heavy_barrier`),
/// otherwise with a sequentially consistent store.
static inline void _asm_publish_hazard(void *_Nonnull word, void *_Nullable value) {
    if (__builtin_expect(_asm_light_hazards != 0, 1)) {
        atomic_store_explicit((_Atomic(void *) *)word, value, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_store_explicit((_Atomic(void *) *)word, value, memory_order_seq_cst);
    }
}

/// The reclaimer's side of `_asm_publish_hazard`: after it, every hazard a reader published before its own
/// re-check of a slot is visible to the caller. Returns false when the fence could not be made (then the
/// caller must free nothing it would have freed on the strength of the hazards it reads).
bool _asm_heavy_barrier(void);

/// Set once the process registers its first decorator; until then the resolve path skips decorators.
extern _Atomic(uintptr_t) _asm_decorators_flag;

/// Whether any decorator was ever registered in the process (a relaxed load).
static inline bool _asm_any_decorators(void) {
    return atomic_load_explicit(&_asm_decorators_flag, memory_order_relaxed) != 0;
}

/// Records that a decorator was registered.
static inline void _asm_mark_decorators(void) {
    atomic_store_explicit(&_asm_decorators_flag, 1, memory_order_release);
}

/// Sets the calling thread's resolution state and hazard word.
/// `destructor` runs with the state when the thread exits.
void _asm_set_thread_state(void *_Nullable value, void *_Nullable hazard, void (*_Nonnull destructor)(void *_Nonnull));

/// Whether the calling thread has less than its safety margin of stack left: a quarter of its stack, at most
/// 128 KiB. The bounds are read once per thread; where they cannot be read, never.
bool _asm_stack_is_low(void);

/// Whether the calling thread is the process's main thread.
bool _asm_is_main_thread(void);

/// The identity of the thread the calling code runs for: its own, or, on a thread started by
/// `_asm_continue_on_new_thread`, that of the thread it continues for. Compare, never dereference.
const void *_Nonnull _asm_logical_thread(void);

/// Runs `body(context)` on a new thread with a stack of `stack_size` bytes, while the calling thread waits.
/// The new thread continues for the caller: it uses the caller's resolution state, hazard word and logical
/// identity. Returns 0 when the body ran, an error number when the thread could not be started.
int _asm_continue_on_new_thread(size_t stack_size, void (*_Nonnull body)(void *_Nullable),
                                void *_Nullable context);

#endif
