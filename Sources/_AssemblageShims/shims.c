#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // pthread_getattr_np
#endif
#include "AssemblageShims.h"
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// MARK: Read sections

#if defined(__linux__) && defined(SYS_membarrier)
// From <linux/membarrier.h>, spelled out so that the headers of old kernels do not matter.
#define ASM_MEMBARRIER_CMD_QUERY 0
#define ASM_MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define ASM_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#endif

int _asm_light_fences = 0;
_Atomic(uint64_t) _asm_epoch = 1;
_Atomic(uintptr_t) _asm_reclaim_pending = 0;
static void (*_Atomic asm_reclaim_hook)(void) = 0;

void _asm_set_reclaim_hook(void (*hook)(void)) { atomic_store_explicit(&asm_reclaim_hook, hook, memory_order_release); }

// Runs when the library is loaded, while the process is still single-threaded as far as Assemblage is
// concerned: no reader can have announced a section with a relaxed store before the flag is set, so a
// reclaimer that sees the flag clear can rely on the readers' own fences.
__attribute__((constructor)) static void asm_setup_fences(void) {
#if defined(__linux__) && defined(SYS_membarrier)
    // For measuring what the asymmetric fences buy (the Performance article): announce with sequentially
    // consistent stores instead.
    const char *off = getenv("ASSEMBLAGE_NO_MEMBARRIER");
    if (off && off[0] == '1') return;
    long commands = syscall(SYS_membarrier, ASM_MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & ASM_MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, ASM_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    _asm_light_fences = 1;
#endif
}

bool _asm_heavy_barrier(void) {
    atomic_thread_fence(memory_order_seq_cst);
#if defined(__linux__) && defined(SYS_membarrier)
    if (_asm_light_fences) return syscall(SYS_membarrier, ASM_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
    return true;
}

void _asm_section_end(void *word, uint64_t epoch) {
    if (epoch == 0) return;
    // Release: every load the section made (and every retain of what it copied out, which the compiler
    // cannot move past this opaque call) happens before the reclaimer can see the section closed.
    atomic_store_explicit((_Atomic(uint64_t) *)word, 0, memory_order_release);
    if (__builtin_expect(atomic_load_explicit(&_asm_reclaim_pending, memory_order_relaxed) != 0, 0)
        && atomic_load_explicit(&_asm_epoch, memory_order_relaxed) != epoch) {
        void (*hook)(void) = atomic_load_explicit(&asm_reclaim_hook, memory_order_acquire);
        if (hook) hook();
    }
}

_Atomic(uintptr_t) _asm_boxes_pending = 0;
static void (*_Atomic asm_box_hook)(void) = 0;

void _asm_set_box_hook(void (*hook)(void)) { atomic_store_explicit(&asm_box_hook, hook, memory_order_release); }

void _asm_clear_hazard(void *word) {
    atomic_store_explicit((_Atomic(void *) *)word, 0, memory_order_release);
    if (__builtin_expect(atomic_load_explicit(&_asm_boxes_pending, memory_order_relaxed) != 0, 0)) {
        void (*hook)(void) = atomic_load_explicit(&asm_box_hook, memory_order_acquire);
        if (hook) hook();
    }
}

_Thread_local void *_asm_tls_state = 0;
_Thread_local void *_asm_tls_section = 0;
_Atomic(uintptr_t) _asm_decorators_flag = 0;
static pthread_key_t asm_key;
static pthread_once_t asm_key_once = PTHREAD_ONCE_INIT;
typedef void (*asm_destructor_fn)(void *);
static _Atomic(asm_destructor_fn) asm_destructor = 0;

static void asm_run_destructor(void *value) {
    _asm_tls_state = 0;
    _asm_tls_section = 0;
    asm_destructor_fn fn = atomic_load_explicit(&asm_destructor, memory_order_acquire);
    if (value && fn) fn(value);
}

static void asm_make_key(void) { pthread_key_create(&asm_key, asm_run_destructor); }

void _asm_set_thread_state(void *value, void *section, void (*destructor)(void *)) {
    pthread_once(&asm_key_once, asm_make_key);
    atomic_store_explicit(&asm_destructor, destructor, memory_order_release);
    _asm_tls_state = value;
    _asm_tls_section = section;
    pthread_setspecific(asm_key, value);
}

// MARK: Stack room

_Thread_local uintptr_t _asm_stack_limit = 0;

uintptr_t _asm_compute_stack_limit(void) {
    uintptr_t low = 0;
    size_t size = 0;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    size = pthread_get_stacksize_np(self);
    low = (uintptr_t)pthread_get_stackaddr_np(self) - size;
#elif defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *address = 0;
        if (pthread_attr_getstack(&attr, &address, &size) == 0) low = (uintptr_t)address;
        pthread_attr_destroy(&attr);
    }
#endif
    uintptr_t limit = 1;
    if (low != 0 && size != 0) {
        // A quarter of the stack, at most 128 KiB; half of a small stack (up to 256 KiB), so that what is left
        // when the guard fires still holds the hop to a roomier thread, even in a debug build.
        size_t margin = size <= 256 * 1024 ? size / 2 : size / 4;
        if (margin > 128 * 1024) margin = 128 * 1024;
        limit = low + margin;
    }
    _asm_stack_limit = limit;
    return limit;
}

bool _asm_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return getpid() == (pid_t)syscall(SYS_gettid);
#else
    return false;
#endif
}

// MARK: Continuing on a new thread

static _Thread_local const void *asm_logical = 0;
static _Thread_local char asm_identity;

const void *_asm_logical_thread(void) { return asm_logical ? asm_logical : (const void *)&asm_identity; }

struct asm_continuation {
    void (*body)(void *);
    void *context;
    void *state;
    void *section;
    const void *logical;
};

static void *asm_continue(void *raw) {
    struct asm_continuation *continuation = raw;
    // Adopted, not owned: no pthread key is set, so nothing is destroyed when this thread exits.
    _asm_tls_state = continuation->state;
    _asm_tls_section = continuation->section;
    asm_logical = continuation->logical;
    continuation->body(continuation->context);
    _asm_tls_state = 0;
    _asm_tls_section = 0;
    asm_logical = 0;
    return 0;
}

int _asm_continue_on_new_thread(size_t stack_size, void (*body)(void *), void *context) {
    struct asm_continuation continuation = { body, context, _asm_tls_state, _asm_tls_section, _asm_logical_thread() };
    pthread_attr_t attr;
    int status = pthread_attr_init(&attr);
    if (status != 0) return status;
    status = pthread_attr_setstacksize(&attr, stack_size);
    pthread_t thread;
    if (status == 0) status = pthread_create(&thread, &attr, asm_continue, &continuation);
    pthread_attr_destroy(&attr);
    if (status != 0) return status;
    return pthread_join(thread, 0);
}

// MARK: Word locks

#if !defined(__APPLE__)
void _asm_word_lock_contended(void *word) {
    _Atomic(uint32_t) *lock = (_Atomic(uint32_t) *)word;
    // The holder runs a short critical section: try a few times before sleeping.
    for (int spin = 0; spin < 64; spin++) {
        uint32_t expected = 0;
        if (atomic_load_explicit(lock, memory_order_relaxed) == 0
            && atomic_compare_exchange_weak_explicit(lock, &expected, 1, memory_order_acquire, memory_order_relaxed)) {
            return;
        }
        sched_yield();
    }
    // Mark the lock contended (2) and sleep until it is free; the thread that takes it this way leaves it at 2,
    // so that its release wakes the next sleeper.
    while (atomic_exchange_explicit(lock, 2, memory_order_acquire) != 0) {
#if defined(__linux__)
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
        sched_yield();
#endif
    }
}

void _asm_word_unlock_contended(void *word) {
#if defined(__linux__)
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    (void)word;
#endif
}
#endif
