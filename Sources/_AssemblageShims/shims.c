#include "AssemblageShims.h"
#include <pthread.h>

static _Thread_local void *asm_state = 0;
static _Thread_local void *asm_hazard = 0;
static pthread_key_t asm_key;
static pthread_once_t asm_key_once = PTHREAD_ONCE_INIT;
typedef void (*asm_destructor_fn)(void *);
static _Atomic(asm_destructor_fn) asm_destructor = 0;

static void asm_run_destructor(void *value) {
    asm_state = 0;
    asm_hazard = 0;
    asm_destructor_fn fn = atomic_load_explicit(&asm_destructor, memory_order_acquire);
    if (value && fn) fn(value);
}

static void asm_make_key(void) { pthread_key_create(&asm_key, asm_run_destructor); }

void *_asm_thread_state(void) { return asm_state; }

void *_asm_thread_hazard(void) { return asm_hazard; }

void _asm_set_thread_state(void *value, void *hazard, void (*destructor)(void *)) {
    pthread_once(&asm_key_once, asm_make_key);
    atomic_store_explicit(&asm_destructor, destructor, memory_order_release);
    asm_state = value;
    asm_hazard = hazard;
    pthread_setspecific(asm_key, value);
}
